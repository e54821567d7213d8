/*
 * dumpscope.core._kernel: the metric kernel's two hot loops in one pass each.
 *
 * Optional: dumpscope.core.metrics falls back to numpy when this is not built.
 * Inputs are 1-D contiguous float32 or float64 buffers of equal length (x = target,
 * y = golden); every sum accumulates in double.  The loops are written so that GCC
 * vectorises them with `#pragma omp simd` (-fopenmp-simd: reductions may be
 * reassociated, nothing else changes; no -ffast-math, so NaN/Inf keep their meaning).
 * A chunk holding any NaN/Inf is redone by a scalar loop that counts them and skips
 * those positions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

#define REL_EPS 2.220446049250313e-16

/* Compile the vectorised loops for AVX2 and AVX-512 as well as the baseline; the
 * loader picks the best one for the CPU at run time (GCC function multi-versioning),
 * so a build is still safe to copy to an older machine. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define TARGETS __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define TARGETS
#endif

typedef struct {
    double sxx, syy, sdd, sad, say, mad, sx, sy, srel, mrel, minx, maxx, miny, maxy;
    long long n, within, nan_x, nan_y, inf_x, inf_y, mismatch, matched;
} Moments;

#define MOMENTS_FAST(T)                                                                  \
    TARGETS static long long moments_fast_##T(const T *x, const T *y, Py_ssize_t n, double rtol,   \
                                      double atol, Moments *m) {                         \
        double sxx = 0, syy = 0, sdd = 0, sad = 0, say = 0, sx = 0, sy = 0, srel = 0;      \
        double mad = 0, mrel = 0, minx = INFINITY, maxx = -INFINITY;                       \
        double miny = INFINITY, maxy = -INFINITY;                                          \
        long long within = 0, bad = 0;                                                     \
        _Pragma("omp simd reduction(+:sxx,syy,sdd,sad,say,sx,sy,srel,within,bad) reduction(max:mad,mrel,maxx,maxy) reduction(min:minx,miny)") \
        for (Py_ssize_t i = 0; i < n; i++) {                                               \
            double xi = (double)x[i], yi = (double)y[i];                                   \
            double d = xi - yi;                                                            \
            double ad = fabs(d), ay = fabs(yi);                                            \
            bad += !((xi - xi == 0.0) & (yi - yi == 0.0));                                 \
            sxx += xi * xi; syy += yi * yi; sdd += d * d; sad += ad; say += ay;            \
            sx += xi; sy += yi;                                                            \
            mad = ad > mad ? ad : mad;                                                     \
            minx = xi < minx ? xi : minx; maxx = xi > maxx ? xi : maxx;                    \
            miny = yi < miny ? yi : miny; maxy = yi > maxy ? yi : maxy;                    \
            within += ad <= atol + rtol * ay;                                              \
            double r = ay > REL_EPS ? ad / ay : 0.0;                                       \
            srel += r; mrel = r > mrel ? r : mrel;                                         \
        }                                                                                  \
        if (bad) return bad;                                                               \
        m->n += n; m->sxx += sxx; m->syy += syy; m->sdd += sdd; m->sad += sad; m->say += say; \
        m->sx += sx; m->sy += sy; m->srel += srel; m->within += within;                    \
        if (mad > m->mad) m->mad = mad;                                                    \
        if (mrel > m->mrel) m->mrel = mrel;                                                \
        if (minx < m->minx) m->minx = minx;                                                \
        if (maxx > m->maxx) m->maxx = maxx;                                                \
        if (miny < m->miny) m->miny = miny;                                                \
        if (maxy > m->maxy) m->maxy = maxy;                                                \
        return 0;                                                                          \
    }

#define MOMENTS_SLOW(T)                                                                  \
    static void moments_slow_##T(const T *x, const T *y, Py_ssize_t n, double rtol,        \
                                 double atol, Moments *m) {                              \
        for (Py_ssize_t i = 0; i < n; i++) {                                               \
            double xi = (double)x[i], yi = (double)y[i];                                   \
            int fx = isfinite(xi), fy = isfinite(yi);                                      \
            if (isnan(xi)) m->nan_x++; else if (!fx) m->inf_x++;                           \
            if (isnan(yi)) m->nan_y++; else if (!fy) m->inf_y++;                           \
            if (!fx || !fy) {                                                              \
                if (!fx && !fy && (xi == yi || (isnan(xi) && isnan(yi)))) m->matched++;    \
                else m->mismatch++;                                                        \
                continue;                                                                  \
            }                                                                              \
            double d = xi - yi, ad = fabs(d), ay = fabs(yi);                               \
            m->n++; m->sxx += xi * xi; m->syy += yi * yi; m->sdd += d * d; m->sad += ad; m->say += ay; \
            m->sx += xi; m->sy += yi;                                                      \
            if (ad > m->mad) m->mad = ad;                                                  \
            if (xi < m->minx) m->minx = xi;                                                \
            if (xi > m->maxx) m->maxx = xi;                                                \
            if (yi < m->miny) m->miny = yi;                                                \
            if (yi > m->maxy) m->maxy = yi;                                                \
            if (ad <= atol + rtol * ay) m->within++;                                       \
            if (ay > REL_EPS) {                                                            \
                double r = ad / ay;                                                        \
                m->srel += r;                                                              \
                if (r > m->mrel) m->mrel = r;                                              \
            }                                                                              \
        }                                                                                  \
    }

MOMENTS_FAST(float)
MOMENTS_FAST(double)
MOMENTS_SLOW(float)
MOMENTS_SLOW(double)

/* KL preparation: for positions finite on both sides write the normalised weight
 * a = max((x - lo_x) * s_x, floor) and t = (a - b) / b with b the same for y, so that
 * log(a / b) = log1p(t) (numpy evaluates log1p vectorised).  Other positions get
 * a = t = 0 and add nothing.  s_x == 0 means a constant tensor: not normalised. */
#define KL_PREP(T)                                                                       \
    TARGETS static void kl_prep_##T(const T *x, const T *y, Py_ssize_t n, double lo_x, double s_x, \
                            double lo_y, double s_y, double floor_, double *a_out,       \
                            double *t_out, double *sa, double *sb) {                     \
        double suma = 0, sumb = 0;                                                         \
        _Pragma("omp simd reduction(+:suma,sumb)")                                         \
        for (Py_ssize_t i = 0; i < n; i++) {                                               \
            double xi = (double)x[i], yi = (double)y[i];                                   \
            int ok = (xi - xi == 0.0) & (yi - yi == 0.0);                                  \
            double a = s_x != 0.0 ? (xi - lo_x) * s_x : xi;                                \
            double b = s_y != 0.0 ? (yi - lo_y) * s_y : yi;                                \
            a = a > floor_ ? a : floor_;                                                   \
            b = b > floor_ ? b : floor_;                                                   \
            a = ok ? a : 0.0;                                                              \
            b = ok ? b : 1.0;                                                              \
            suma += a; sumb += ok ? b : 0.0;                                               \
            a_out[i] = a;                                                                  \
            t_out[i] = ok ? (a - b) / b : 0.0;                                             \
        }                                                                                  \
        *sa += suma; *sb += sumb;                                                          \
    }

KL_PREP(float)
KL_PREP(double)

static int get_pair(PyObject *ox, PyObject *oy, Py_buffer *bx, Py_buffer *by, int *is_double) {
    if (PyObject_GetBuffer(ox, bx, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (PyObject_GetBuffer(oy, by, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyBuffer_Release(bx);
        return -1;
    }
    const char *fx = bx->format ? bx->format : "B", *fy = by->format ? by->format : "B";
    if (fx[0] == '<' || fx[0] == '=' || fx[0] == '@') fx++;
    if (fy[0] == '<' || fy[0] == '=' || fy[0] == '@') fy++;
    if (strcmp(fx, fy) != 0 || (strcmp(fx, "f") != 0 && strcmp(fx, "d") != 0) ||
        bx->len != by->len) {
        PyErr_SetString(PyExc_TypeError, "expected two float32 or two float64 buffers of equal length");
        PyBuffer_Release(bx);
        PyBuffer_Release(by);
        return -1;
    }
    *is_double = fx[0] == 'd';
    return 0;
}

static PyObject *moments(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *ox, *oy;
    double rtol, atol;
    if (!PyArg_ParseTuple(args, "OOdd", &ox, &oy, &rtol, &atol)) return NULL;
    Py_buffer bx, by;
    int dbl;
    if (get_pair(ox, oy, &bx, &by, &dbl) < 0) return NULL;
    Moments m;
    memset(&m, 0, sizeof m);
    m.minx = m.miny = INFINITY;
    m.maxx = m.maxy = -INFINITY;
    Py_ssize_t n = bx.len / (dbl ? 8 : 4);
    Py_BEGIN_ALLOW_THREADS
    if (dbl) {
        if (moments_fast_double(bx.buf, by.buf, n, rtol, atol, &m)) moments_slow_double(bx.buf, by.buf, n, rtol, atol, &m);
    } else {
        if (moments_fast_float(bx.buf, by.buf, n, rtol, atol, &m)) moments_slow_float(bx.buf, by.buf, n, rtol, atol, &m);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&bx);
    PyBuffer_Release(&by);
    return Py_BuildValue("{s:L,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:L,s:L,s:L,s:L,s:L,s:L,s:L}",
                         "n", m.n, "sxx", m.sxx, "syy", m.syy, "sdd", m.sdd, "sad", m.sad, "say", m.say, "mad", m.mad,
                         "sx", m.sx, "sy", m.sy, "srel", m.srel, "mrel", m.mrel, "minx", m.minx,
                         "maxx", m.maxx, "miny", m.miny, "maxy", m.maxy, "within", m.within,
                         "nan_x", m.nan_x, "nan_y", m.nan_y, "inf_x", m.inf_x, "inf_y", m.inf_y,
                         "mismatch", m.mismatch, "matched_nonfinite", m.matched);
}

static PyObject *kl_prep(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *ox, *oy, *oa, *ot;
    double lo_x, s_x, lo_y, s_y, floor_;
    if (!PyArg_ParseTuple(args, "OOdddddOO", &ox, &oy, &lo_x, &s_x, &lo_y, &s_y, &floor_, &oa, &ot)) return NULL;
    Py_buffer bx, by, ba, bt;
    int dbl;
    if (get_pair(ox, oy, &bx, &by, &dbl) < 0) return NULL;
    Py_ssize_t n = bx.len / (dbl ? 8 : 4);
    if (PyObject_GetBuffer(oa, &ba, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) goto fail2;
    if (PyObject_GetBuffer(ot, &bt, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) goto fail3;
    if (ba.len < n * 8 || bt.len < n * 8) {
        PyErr_SetString(PyExc_ValueError, "output buffers too small (need float64 of the input length)");
        goto fail4;
    }
    double sa = 0, sb = 0;
    Py_BEGIN_ALLOW_THREADS
    if (dbl) kl_prep_double(bx.buf, by.buf, n, lo_x, s_x, lo_y, s_y, floor_, ba.buf, bt.buf, &sa, &sb);
    else kl_prep_float(bx.buf, by.buf, n, lo_x, s_x, lo_y, s_y, floor_, ba.buf, bt.buf, &sa, &sb);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&bt);
    PyBuffer_Release(&ba);
    PyBuffer_Release(&bx);
    PyBuffer_Release(&by);
    return Py_BuildValue("dd", sa, sb);
fail4:
    PyBuffer_Release(&bt);
fail3:
    PyBuffer_Release(&ba);
fail2:
    PyBuffer_Release(&bx);
    PyBuffer_Release(&by);
    return NULL;
}

/* The segmented variants: many small tensors concatenated into one buffer per side, with
 * offsets[k]..offsets[k+1] the k-th tensor.  Each segment runs exactly the per-tensor
 * loops above (a zeroed Moments each), so every sum is bit for bit what `moments` gives
 * for that tensor alone; only the Python call per tensor is saved.  Results are written
 * as rows of SEG_FIELDS doubles (counts are exact in a double below 2**53). */
#define SEG_FIELDS 22

static void moments_row(const Moments *m, double *row) {
    const double v[SEG_FIELDS] = {(double)m->n, m->sxx, m->syy, m->sdd, m->sad, m->say, m->mad, m->sx, m->sy,
                                  m->srel, m->mrel, m->minx, m->maxx, m->miny, m->maxy, (double)m->within,
                                  (double)m->nan_x, (double)m->nan_y, (double)m->inf_x, (double)m->inf_y,
                                  (double)m->mismatch, (double)m->matched};
    memcpy(row, v, sizeof v);
}

static void moments_segment(const char *x, const char *y, Py_ssize_t n, int dbl, double rtol, double atol, double *row) {
    Moments m;
    memset(&m, 0, sizeof m);
    m.minx = m.miny = INFINITY;
    m.maxx = m.maxy = -INFINITY;
    if (dbl) {
        if (moments_fast_double((const double *)x, (const double *)y, n, rtol, atol, &m))
            moments_slow_double((const double *)x, (const double *)y, n, rtol, atol, &m);
    } else {
        if (moments_fast_float((const float *)x, (const float *)y, n, rtol, atol, &m))
            moments_slow_float((const float *)x, (const float *)y, n, rtol, atol, &m);
    }
    moments_row(&m, row);
}

/* Offsets must rise from 0 to the element count of both buffers. */
static int check_offsets(const long long *off, Py_ssize_t segs, Py_ssize_t n) {
    if (off[0] != 0 || off[segs] != n) return -1;
    for (Py_ssize_t k = 0; k < segs; k++)
        if (off[k + 1] < off[k]) return -1;
    return 0;
}

static int get_offsets(PyObject *oo, Py_buffer *bo, Py_ssize_t n, Py_ssize_t *segs) {
    if (PyObject_GetBuffer(oo, bo, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    const char *f = bo->format ? bo->format : "B";
    if (f[0] == '<' || f[0] == '=' || f[0] == '@') f++;
    *segs = bo->len / 8 - 1;
    if ((strcmp(f, "q") != 0 && strcmp(f, "l") != 0) || bo->itemsize != 8 || *segs < 0 ||
        check_offsets(bo->buf, *segs, n) < 0) {
        PyErr_SetString(PyExc_ValueError, "offsets must be int64, rising from 0 to the buffers' length");
        PyBuffer_Release(bo);
        return -1;
    }
    return 0;
}

static int get_out(PyObject *oo, Py_buffer *bo, Py_ssize_t need) {
    if (PyObject_GetBuffer(oo, bo, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) return -1;
    if (bo->len < need) {
        PyErr_SetString(PyExc_ValueError, "output buffer too small");
        PyBuffer_Release(bo);
        return -1;
    }
    return 0;
}

static PyObject *moments_segments(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *ox, *oy, *oo, *out;
    double rtol, atol;
    if (!PyArg_ParseTuple(args, "OOOddO", &ox, &oy, &oo, &rtol, &atol, &out)) return NULL;
    Py_buffer bx, by, bo, bout;
    int dbl;
    Py_ssize_t segs;
    if (get_pair(ox, oy, &bx, &by, &dbl) < 0) return NULL;
    Py_ssize_t item = dbl ? 8 : 4, n = bx.len / item;
    if (get_offsets(oo, &bo, n, &segs) < 0) goto fail_pair;
    if (get_out(out, &bout, segs * SEG_FIELDS * 8) < 0) goto fail_off;
    const long long *off = bo.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < segs; k++)
        moments_segment((const char *)bx.buf + off[k] * item, (const char *)by.buf + off[k] * item,
                        (Py_ssize_t)(off[k + 1] - off[k]), dbl, rtol, atol, (double *)bout.buf + k * SEG_FIELDS);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&bout);
    PyBuffer_Release(&bo);
    PyBuffer_Release(&bx);
    PyBuffer_Release(&by);
    Py_RETURN_NONE;
fail_off:
    PyBuffer_Release(&bo);
fail_pair:
    PyBuffer_Release(&bx);
    PyBuffer_Release(&by);
    return NULL;
}

/* kl_prep over every segment: params holds 4 doubles per segment (lo_x, s_x, lo_y, s_y);
 * a_out/t_out receive the concatenated outputs, sums 2 doubles per segment (sum a, sum b). */
static PyObject *kl_prep_segments(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *ox, *oy, *oo, *op, *oa, *ot, *os;
    double floor_;
    if (!PyArg_ParseTuple(args, "OOOOdOOO", &ox, &oy, &oo, &op, &floor_, &oa, &ot, &os)) return NULL;
    Py_buffer bx, by, bo, bp, ba, bt, bs;
    int dbl;
    Py_ssize_t segs;
    if (get_pair(ox, oy, &bx, &by, &dbl) < 0) return NULL;
    Py_ssize_t item = dbl ? 8 : 4, n = bx.len / item;
    if (get_offsets(oo, &bo, n, &segs) < 0) goto fail_pair;
    if (PyObject_GetBuffer(op, &bp, PyBUF_C_CONTIGUOUS) < 0) goto fail_off;
    if (bp.len < segs * 4 * 8) {
        PyErr_SetString(PyExc_ValueError, "params too small (4 float64 per segment)");
        goto fail_params;
    }
    if (get_out(oa, &ba, n * 8) < 0) goto fail_params;
    if (get_out(ot, &bt, n * 8) < 0) goto fail_a;
    if (get_out(os, &bs, segs * 2 * 8) < 0) goto fail_t;
    const long long *off = bo.buf;
    const double *prm = bp.buf;
    double *a = ba.buf, *t = bt.buf, *sums = bs.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < segs; k++) {
        Py_ssize_t s = (Py_ssize_t)off[k], len = (Py_ssize_t)(off[k + 1] - off[k]);
        const double *q = prm + 4 * k;
        double sa = 0, sb = 0;
        if (dbl) kl_prep_double((const double *)bx.buf + s, (const double *)by.buf + s, len, q[0], q[1], q[2], q[3], floor_, a + s, t + s, &sa, &sb);
        else kl_prep_float((const float *)bx.buf + s, (const float *)by.buf + s, len, q[0], q[1], q[2], q[3], floor_, a + s, t + s, &sa, &sb);
        sums[2 * k] = sa;
        sums[2 * k + 1] = sb;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&bs);
    PyBuffer_Release(&bt);
    PyBuffer_Release(&ba);
    PyBuffer_Release(&bp);
    PyBuffer_Release(&bo);
    PyBuffer_Release(&bx);
    PyBuffer_Release(&by);
    Py_RETURN_NONE;
fail_t:
    PyBuffer_Release(&bt);
fail_a:
    PyBuffer_Release(&ba);
fail_params:
    PyBuffer_Release(&bp);
fail_off:
    PyBuffer_Release(&bo);
fail_pair:
    PyBuffer_Release(&bx);
    PyBuffer_Release(&by);
    return NULL;
}

static PyMethodDef methods[] = {
    {"moments", moments, METH_VARARGS,
     "moments(x, y, rtol, atol) -> dict of float64 sums over positions finite on both sides"},
    {"kl_prep", kl_prep, METH_VARARGS,
     "kl_prep(x, y, lo_x, s_x, lo_y, s_y, floor, a_out, t_out) -> (sum a, sum b)"},
    {"moments_segments", moments_segments, METH_VARARGS,
     "moments_segments(x, y, offsets, rtol, atol, out): per segment, moments' sums as 22 float64 in out"},
    {"kl_prep_segments", kl_prep_segments, METH_VARARGS,
     "kl_prep_segments(x, y, offsets, params, floor, a_out, t_out, sums): kl_prep per segment"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", NULL, -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
