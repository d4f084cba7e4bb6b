"""A campaign replayed as one self-contained web page (issue 31).

``page`` holds what the page shows (already public facts, already in the campaign's
words: the application composes them from public views) and turns it into HTML through
the Jinja2 template beside it. Everything the page needs is inside the file: images as
data URIs, the style and the paging script inline, system fonts only, and a content
security policy that forbids the browser to fetch anything at all.
"""
