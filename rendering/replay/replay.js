(function () {
  "use strict";
  // Without this script every section shows, one under the other: the page reads whole.
  // With it, one section at a time: the arrow keys, the buttons, the slider, the turn list
  // and a swipe page through them, and the page's address remembers where the reader is.
  var sections = Array.prototype.slice.call(document.querySelectorAll("main > section"));
  if (!sections.length) { return; }
  var links = Array.prototype.slice.call(document.querySelectorAll("nav#turns ol a"));
  var slider = document.getElementById("slider");
  var prev = document.getElementById("prev");
  var next = document.getElementById("next");
  var where = document.getElementById("where");
  var current = -1;
  document.documentElement.classList.add("paged");

  function indexOf(id) {
    for (var i = 0; i < sections.length; i++) {
      if (sections[i].id === id) { return i; }
    }
    return -1;
  }

  // On a phone the turn list is one row that scrolls sideways: bring the page's link into
  // it (scrollIntoView would move the whole page too).
  function inSight(link) {
    var list = link.parentNode.parentNode;
    var box = list.getBoundingClientRect();
    var at = link.getBoundingClientRect();
    if (at.left < box.left) { list.scrollLeft -= box.left - at.left + 8; }
    else if (at.right > box.right) { list.scrollLeft += at.right - box.right + 8; }
  }

  function show(index, focus, initial) {
    index = Math.max(0, Math.min(sections.length - 1, index));
    if (index === current) { return; }
    current = index;
    sections.forEach(function (section, i) { section.hidden = i !== index; });
    links.forEach(function (link, i) {
      if (i === index) { link.setAttribute("aria-current", "page"); }
      else { link.removeAttribute("aria-current"); }
    });
    if (links[index]) { inSight(links[index]); }
    slider.value = String(index + 1);
    slider.setAttribute("aria-valuetext", sections[index].querySelector("h2").textContent);
    prev.disabled = index === 0;
    next.disabled = index === sections.length - 1;
    where.textContent = sections[index].querySelector("h2").textContent +
      " · " + (index + 1) + "/" + sections.length;
    // The address follows the reader (a link to a turn), but not while the page loads: the
    // browser would then scroll to that fragment as the load ends.
    if (!initial) {
      try { history.replaceState(null, "", "#" + sections[index].id); } catch (e) { /* file: */ }
    }
    if (focus) { sections[index].querySelector("h2").focus(); }
    window.scrollTo(0, 0);
  }

  prev.addEventListener("click", function () { show(current - 1, false); });
  next.addEventListener("click", function () { show(current + 1, false); });
  slider.addEventListener("input", function () { show(Number(slider.value) - 1, false); });
  links.forEach(function (link, i) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      show(i, true);
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    var target = event.target;
    // The slider and any text field use the arrows themselves.
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) {
      return;
    }
    var step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (step) {
      show(current + step, true);
      event.preventDefault();
    }
  });
  var touchX = null;
  var touchY = null;
  var main = document.getElementById("pages");
  main.addEventListener("touchstart", function (event) {
    if (event.touches.length !== 1) { touchX = null; return; }
    touchX = event.touches[0].clientX;
    touchY = event.touches[0].clientY;
  }, { passive: true });
  main.addEventListener("touchend", function (event) {
    if (touchX === null) { return; }
    var dx = event.changedTouches[0].clientX - touchX;
    var dy = event.changedTouches[0].clientY - touchY;
    touchX = null;
    // A clear sideways swipe only: scrolling down a long turn must not page.
    if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy)) { show(current + (dx < 0 ? 1 : -1), false); }
  }, { passive: true });
  window.addEventListener("hashchange", function () {
    var index = indexOf(location.hash.slice(1));
    if (index >= 0) { show(index, true); }
  });
  // The list's row may be laid out again (the page loaded, the phone turned): the link anew.
  function keepInSight() { if (links[current]) { inSight(links[current]); } }
  window.addEventListener("resize", keepInSight);
  window.addEventListener("load", keepInSight);
  var start = indexOf(location.hash.slice(1));
  show(start >= 0 ? start : 0, false, true);
  // Opened at a turn's address, the browser scrolls to that section once loaded: the
  // paging controls above it should stay in sight instead.
  if (start > 0) {
    window.addEventListener("load", function () {
      setTimeout(function () { window.scrollTo(0, 0); }, 0);
    });
  }
}());
