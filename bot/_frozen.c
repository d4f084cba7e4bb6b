/* The objects frozen after a mark, listed without touching the ones frozen before it.

   ``gc.get_objects`` lists a generation by handing back a reference to each of its
   objects, which writes into every one of them (its reference count). The collector's
   review (bot/collector.py) lists the frozen objects; start-up's are among them, and
   their pages are shared with the worker processes forked from the bot
   (bot/processes.py): written, each page is copied into the bot, 23 MiB in all with
   1,000 campaigns (bench/memory.py). Here the permanent generation's list is followed in
   place from a mark frozen right behind start-up's objects (``bot.collector.mark_shared``)
   to its end; only what comes after the mark is referred to.

   Reads CPython 3.11's own collector state (its internal headers): built by
   scripts/build_native.py, and when absent the collector lists the slow way. */

#define PY_SSIZE_T_CLEAN
#ifndef Py_BUILD_CORE_MODULE
#define Py_BUILD_CORE_MODULE 1
#endif
#include <Python.h>
#include "internal/pycore_gc.h"
#include "internal/pycore_interp.h"
#include "internal/pycore_pystate.h"

/* The objects after ``mark`` in the permanent generation, oldest first; None when the mark
   is in another generation (the frozen objects were unfrozen since it was frozen). */
static PyObject *
frozen_after(PyObject *module, PyObject *mark)
{
    if (!PyObject_IS_GC(mark) || !_PyObject_GC_IS_TRACKED(mark)) {
        PyErr_SetString(PyExc_ValueError, "the mark is not tracked by the collector");
        return NULL;
    }
    struct _gc_runtime_state *state = &_PyInterpreterState_GET()->gc;
    PyGC_Head *end = &state->permanent_generation.head;
    PyObject *found = PyList_New(0);  /* the one object made here: made before the walk */
    if (found == NULL) {
        return NULL;
    }
    for (PyGC_Head *node = _PyGCHead_NEXT(_Py_AS_GC(mark)); node != end;
         node = _PyGCHead_NEXT(node)) {
        for (int i = 0; i < NUM_GENERATIONS; i++) {
            if (node == &state->generations[i].head) {  /* not frozen: another list */
                Py_DECREF(found);
                Py_RETURN_NONE;
            }
        }
        /* An object follows its header (``_Py_AS_GC`` backwards). Appending allocates no
           tracked object, so no collection moves the list under the walk. */
        if (PyList_Append(found, (PyObject *)(node + 1)) < 0) {
            Py_DECREF(found);
            return NULL;
        }
    }
    return found;
}

static PyMethodDef methods[] = {
    {"frozen_after", frozen_after, METH_O,
     "The objects frozen after the mark, oldest first (None: the mark is not frozen)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "bot._frozen", "Frozen objects listed in place.", -1, methods,
};

PyMODINIT_FUNC
PyInit__frozen(void)
{
    /* The collector's state as this interpreter's headers lay it out: built for another
       release (an upgrade since the build), refused, and the collector lists the slow way. */
    if (Py_Version != PY_VERSION_HEX) {
        PyErr_SetString(PyExc_ImportError,
                        "bot._frozen was built for another Python (scripts/build_native.py)");
        return NULL;
    }
    return PyModule_Create(&module);
}
