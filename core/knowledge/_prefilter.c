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
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static unsigned char lower_of[256];

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

static PyObject *line_starts(PyObject *self, PyObject *args) {
    Py_buffer view;
    PyObject *cues_obj;
    if (!PyArg_ParseTuple(args, "y*O!", &view, &PyTuple_Type, &cues_obj)) return NULL;
    Py_ssize_t ncues = PyTuple_GET_SIZE(cues_obj);
    Cue *cues = PyMem_Calloc(ncues ? (size_t)ncues : 1, sizeof(Cue));
    /* first[c]: the cues whose first byte is c, as a chain through next[] */
    Py_ssize_t *next = PyMem_Calloc(ncues ? (size_t)ncues : 1, sizeof(Py_ssize_t));
    Py_ssize_t first[256];
    uint8_t pair[8192]; /* bit (c1 << 8 | c2): some cue starts with c1 c2 (a one-byte cue: any c2) */
    PyObject *out = NULL;
    if (cues == NULL || next == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    memset(pair, 0, sizeof pair);
    for (int c = 0; c < 256; c++) first[c] = -1;
    for (Py_ssize_t i = ncues - 1; i >= 0; i--) {
        PyObject *cue = PyTuple_GET_ITEM(cues_obj, i);
        if (!PyBytes_Check(cue)) {
            PyErr_SetString(PyExc_TypeError, "cues must be bytes");
            goto done;
        }
        cues[i].s = (const unsigned char *)PyBytes_AS_STRING(cue);
        cues[i].len = PyBytes_GET_SIZE(cue);
        if (cues[i].len == 0) continue; /* bytes.find of b"" finds every line: not a cue anyone passes */
        unsigned c1 = cues[i].s[0];
        next[i] = first[c1];
        first[c1] = i;
        if (cues[i].len == 1)
            for (unsigned c2 = 0; c2 < 256; c2++) pair[(c1 << 8 | c2) >> 3] |= (uint8_t)(1u << (c2 & 7));
        else {
            unsigned key = c1 << 8 | cues[i].s[1];
            pair[key >> 3] |= (uint8_t)(1u << (key & 7));
        }
    }
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
        unsigned c1 = lower_of[c];
        unsigned c2 = p + 1 < n ? lower_of[b[p + 1]] : 0;
        unsigned key = c1 << 8 | c2;
        if (first[c1] >= 0 && (pair[key >> 3] >> (key & 7) & 1)) {
            for (Py_ssize_t i = first[c1]; i >= 0 && !hit; i = next[i]) {
                Py_ssize_t len = cues[i].len;
                if (p + len > n) continue;
                Py_ssize_t j = 1;
                while (j < len && lower_of[b[p + j]] == cues[i].s[j]) j++;
                hit = j == len;
            }
        }
        if (!hit && (c == 'E' || c == 'W')) hit = code_at(b, n, p);
        if (!hit) {
            p++;
            continue;
        }
        PyObject *start = PyLong_FromSsize_t(line);
        if (start == NULL || PyList_Append(out, start) < 0) {
            Py_XDECREF(start);
            Py_CLEAR(out);
            goto done;
        }
        Py_DECREF(start);
        const unsigned char *nl = memchr(b + p, '\n', (size_t)(n - p));
        if (nl == NULL) break;
        p = nl - b + 1;
        line = p;
    }
done:
    PyMem_Free(cues);
    PyMem_Free(next);
    PyBuffer_Release(&view);
    return out;
}

static PyMethodDef methods[] = {
    {"line_starts", line_starts, METH_VARARGS,
     "line_starts(buf, cues) -> sorted starts of the lines holding a cue (ASCII case folded) or an Ascend code"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_prefilter", NULL, -1, methods};

PyMODINIT_FUNC PyInit__prefilter(void) {
    for (int c = 0; c < 256; c++) lower_of[c] = (unsigned char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    return PyModule_Create(&module);
}
