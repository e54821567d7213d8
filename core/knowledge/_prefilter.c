/*
 * dumpscope.core.knowledge._prefilter: the log scan's prefilter in one pass over a chunk.
 *
 * Optional: dumpscope.core.knowledge.scan falls back to one bytes.find pass per cue word (the
 * same lines, tested to be equal) when this is not built.  With sixty cue words that fallback
 * reads each chunk sixty times; this reads it once.
 *
 * `line_starts(buf, cues)` gives the sorted starts of the lines of `buf` that hold
 *   - a cue (each compared with `buf` lower-cased in ASCII, as bytes.lower() does: a cue holding
 *     an upper-case letter never matches), starting on that line (a cue may run past its end:
 *     b"not\n"); or
 *   - an Ascend code at the start of a word: [EW][0-9A-Z][0-9]{4} with no word character after it
 *     (re's \b on bytes) and none of letter, digit, '_' or '-' before it, an ANSI colour code
 *     (ESC [ up to eight of [0-9;] m) right before it not counting.
 * A cue never starts with a newline and is never empty (the bytes.find loop would not end either).
 *
 * `present(text, needles)` gives the sorted indices of the needles that occur in `text`, byte for
 * byte (the lookup's anchors in a message's UTF-8: `[a for a in anchors if a in lowered]` in one pass).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static unsigned char lower_of[256];
static unsigned char same_byte[256];

static int is_word(unsigned char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

/* An ANSI colour code ends right before `pos` (ESC [ [0-9;]{0,8} m). */
static int ansi_before(const unsigned char *b, Py_ssize_t pos) {
    if (pos < 3 || b[pos - 1] != 'm') return 0;
    Py_ssize_t i = pos - 2, k = 0;
    while (i >= 0 && k <= 8 && ((b[i] >= '0' && b[i] <= '9') || b[i] == ';')) i--, k++;
    return k <= 8 && i >= 1 && b[i] == '[' && b[i - 1] == 0x1b;
}

static int code_at(const unsigned char *b, Py_ssize_t n, Py_ssize_t p) {
    if (p + 6 > n || (b[p] != 'E' && b[p] != 'W')) return 0;
    unsigned char c = b[p + 1];
    if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'))) return 0;
    for (int j = 2; j < 6; j++)
        if (b[p + j] < '0' || b[p + j] > '9') return 0;
    if (p + 6 < n && is_word(b[p + 6])) return 0;
    if (p == 0 || ansi_before(b, p)) return 1;
    c = b[p - 1];
    return !(is_word(c) || c == '-');
}

typedef struct {
    const unsigned char *s;
    Py_ssize_t len;
} Cue;

/* The needles of a tuple of bytes, chained by first byte, with a bitmap of their first two bytes. */
typedef struct {
    Py_ssize_t n;
    Cue *cues;
    Py_ssize_t *next;
    Py_ssize_t first[256];
    uint8_t pair[8192]; /* bit (c1 << 8 | c2): some needle starts with c1 c2 (a one-byte needle: any c2) */
} Table;

static void table_free(Table *t) {
    PyMem_Free(t->cues);
    PyMem_Free(t->next);
}

/* 0, or -1 with an exception set.  Empty needles are left out of the chains. */
static int table_build(Table *t, PyObject *tuple) {
    t->n = PyTuple_GET_SIZE(tuple);
    t->cues = PyMem_Calloc(t->n ? (size_t)t->n : 1, sizeof(Cue));
    t->next = PyMem_Calloc(t->n ? (size_t)t->n : 1, sizeof(Py_ssize_t));
    if (t->cues == NULL || t->next == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memset(t->pair, 0, sizeof t->pair);
    for (int c = 0; c < 256; c++) t->first[c] = -1;
    for (Py_ssize_t i = t->n - 1; i >= 0; i--) {
        PyObject *cue = PyTuple_GET_ITEM(tuple, i);
        if (!PyBytes_Check(cue)) {
            PyErr_SetString(PyExc_TypeError, "needles must be bytes");
            return -1;
        }
        t->cues[i].s = (const unsigned char *)PyBytes_AS_STRING(cue);
        t->cues[i].len = PyBytes_GET_SIZE(cue);
        if (t->cues[i].len == 0) continue;
        unsigned c1 = t->cues[i].s[0];
        t->next[i] = t->first[c1];
        t->first[c1] = i;
        if (t->cues[i].len == 1)
            for (unsigned c2 = 0; c2 < 256; c2++) t->pair[(c1 << 8 | c2) >> 3] |= (uint8_t)(1u << (c2 & 7));
        else {
            unsigned key = c1 << 8 | t->cues[i].s[1];
            t->pair[key >> 3] |= (uint8_t)(1u << (key & 7));
        }
    }
    return 0;
}

/* The first two bytes at p (as `map` gives them) start some needle. */
static inline int table_may_start(const Table *t, const unsigned char *map, const unsigned char *b, Py_ssize_t n,
                                  Py_ssize_t p) {
    unsigned c1 = map[b[p]];
    unsigned key = c1 << 8 | (p + 1 < n ? map[b[p + 1]] : 0);
    return t->first[c1] >= 0 && (t->pair[key >> 3] >> (key & 7) & 1);
}

/* Needle i is at p, compared through `map`. */
static inline int needle_at(const Table *t, const unsigned char *map, const unsigned char *b, Py_ssize_t n,
                            Py_ssize_t p, Py_ssize_t i) {
    Py_ssize_t len = t->cues[i].len;
    if (p + len > n) return 0;
    const unsigned char *s = t->cues[i].s;
    for (Py_ssize_t j = 0; j < len; j++)
        if (map[b[p + j]] != s[j]) return 0;
    return 1;
}

static int append_index(PyObject *list, Py_ssize_t v) {
    PyObject *o = PyLong_FromSsize_t(v);
    if (o == NULL) return -1;
    int r = PyList_Append(list, o);
    Py_DECREF(o);
    return r;
}

static PyObject *line_starts(PyObject *self, PyObject *args) {
    Py_buffer view;
    PyObject *cues_obj;
    if (!PyArg_ParseTuple(args, "y*O!", &view, &PyTuple_Type, &cues_obj)) return NULL;
    Table t = {0};
    PyObject *out = NULL;
    if (table_build(&t, cues_obj) < 0) goto done;
    const unsigned char *b = view.buf;
    Py_ssize_t n = view.len;
    out = PyList_New(0);
    if (out == NULL) goto done;
    Py_ssize_t line = 0, p = 0;
    while (p < n) {
        unsigned char c = b[p];
        if (c == '\n') {
            line = ++p;
            continue;
        }
        int hit = 0;
        if (table_may_start(&t, lower_of, b, n, p))
            for (Py_ssize_t i = t.first[lower_of[c]]; i >= 0 && !hit; i = t.next[i]) hit = needle_at(&t, lower_of, b, n, p, i);
        if (!hit && (c == 'E' || c == 'W')) hit = code_at(b, n, p);
        if (!hit) {
            p++;
            continue;
        }
        if (append_index(out, line) < 0) {
            Py_CLEAR(out);
            goto done;
        }
        const unsigned char *nl = memchr(b + p, '\n', (size_t)(n - p));
        if (nl == NULL) break;
        p = nl - b + 1;
        line = p;
    }
done:
    table_free(&t);
    PyBuffer_Release(&view);
    return out;
}

static PyObject *present(PyObject *self, PyObject *args) {
    Py_buffer view;
    PyObject *needles;
    if (!PyArg_ParseTuple(args, "y*O!", &view, &PyTuple_Type, &needles)) return NULL;
    Table t = {0};
    PyObject *out = NULL;
    char *found = NULL;
    if (table_build(&t, needles) < 0) goto done;
    found = PyMem_Calloc(t.n ? (size_t)t.n : 1, 1);
    if (found == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < t.n; i++) found[i] = t.cues[i].len == 0; /* b"" is in any text */
    const unsigned char *b = view.buf;
    Py_ssize_t n = view.len;
    for (Py_ssize_t p = 0; p < n; p++) {
        if (!table_may_start(&t, same_byte, b, n, p)) continue;
        for (Py_ssize_t i = t.first[b[p]]; i >= 0; i = t.next[i])
            if (!found[i] && needle_at(&t, same_byte, b, n, p, i)) found[i] = 1;
    }
    out = PyList_New(0);
    if (out == NULL) goto done;
    for (Py_ssize_t i = 0; i < t.n; i++)
        if (found[i] && append_index(out, i) < 0) {
            Py_CLEAR(out);
            goto done;
        }
done:
    PyMem_Free(found);
    table_free(&t);
    PyBuffer_Release(&view);
    return out;
}

static PyMethodDef methods[] = {
    {"line_starts", line_starts, METH_VARARGS,
     "line_starts(buf, cues) -> sorted starts of the lines holding a cue (ASCII case folded) or an Ascend code"},
    {"present", present, METH_VARARGS, "present(text, needles) -> sorted indices of the needles that occur in text"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_prefilter", NULL, -1, methods};

PyMODINIT_FUNC PyInit__prefilter(void) {
    for (int c = 0; c < 256; c++) {
        lower_of[c] = (unsigned char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
        same_byte[c] = (unsigned char)c;
    }
    return PyModule_Create(&module);
}
