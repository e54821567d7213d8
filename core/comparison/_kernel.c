/*
 * dumpscope.core.comparison._kernel: the metric kernel, one call per pair (`pair`).
 *
 * Optional: dumpscope.core.comparison.metrics falls back to numpy when this is not built.
 * `pair` reads both sides in place in any numeric type (x = target, y = golden), converts
 * them chunk by chunk into a thread's reused work buffer (F16C where the CPU has it), runs
 * the moments pass and then the fused KL pass over the chunk still in cache; every sum
 * accumulates in double.  The inner loops take 1-D contiguous float32 or float64 buffers.
 * The loops are written so that GCC vectorises them with `#pragma omp simd` (-fopenmp-simd:
 * reductions may be reassociated, nothing else changes; no -ffast-math, so NaN/Inf keep
 * their meaning; -fno-trapping-math lets GCC if-convert the selects, which never trap here).
 * A chunk holding any NaN/Inf is redone by a scalar loop that counts them and skips
 * those positions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REL_EPS 2.220446049250313e-16

/* Compile the vectorised loops for AVX2 and AVX-512 as well as the baseline; the
 * loader picks the best one for the CPU at run time (GCC function multi-versioning),
 * so a build is still safe to copy to an older machine.  -DDUMPSCOPE_PORTABLE builds the
 * baseline alone, without F16C: what a CPU without AVX or F16C runs (a test builds it). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
    !defined(DUMPSCOPE_PORTABLE)
#define TARGETS __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define TARGETS
#endif

typedef struct {
    double sxx, syy, sdd, sad, say, mad, sx, sy, srel, mrel, minx, maxx, miny, maxy, sxy;
    long long n, within, nan_x, nan_y, inf_x, inf_y, mismatch, matched;
} Moments;

/* The vectorised moments of a chunk; nonzero (and nothing added) when the chunk holds a NaN or
 * an Inf, which the scalar loop below then counts.  T: the working type.  The extremes are kept
 * in T (exact: a float's min is a float), 16 lanes to a vector for float instead of 8 doubles.
 * CHECK: count the positions that are not finite in the loop (double); without it (float) a
 * NaN or Inf shows in the sums of squares instead, which no finite float can overflow
 * (2^31 squares of at most 1.2e77), so the test is exact and costs nothing per element. */
#define MOMENTS_FAST(T, CHECK)                                                           \
    TARGETS static long long moments_fast_##T(const T *x, const T *y, Py_ssize_t n, double rtol,   \
                                      double atol, Moments *m) {                         \
        double sxx = 0, syy = 0, sdd = 0, sad = 0, say = 0, sx = 0, sy = 0, srel = 0, sxy = 0; \
        double mad = 0, mrel = 0;                                                          \
        T minx = INFINITY, maxx = -INFINITY, miny = INFINITY, maxy = -INFINITY;            \
        long long within = 0, bad = 0;                                                     \
        _Pragma("omp simd reduction(+:sxx,syy,sdd,sad,say,sx,sy,srel,sxy,within,bad) reduction(max:mad,mrel,maxx,maxy) reduction(min:minx,miny)") \
        for (Py_ssize_t i = 0; i < n; i++) {                                               \
            T xt = x[i], yt = y[i];                                                        \
            double xi = (double)xt, yi = (double)yt;                                       \
            double d = xi - yi;                                                            \
            double ad = fabs(d), ay = fabs(yi);                                            \
            if (CHECK) bad += !((xi - xi == 0.0) & (yi - yi == 0.0));                      \
            sxx += xi * xi; syy += yi * yi; sdd += d * d; sad += ad; say += ay;            \
            sx += xi; sy += yi; sxy += xi * yi;                                            \
            mad = ad > mad ? ad : mad;                                                     \
            minx = xt < minx ? xt : minx; maxx = xt > maxx ? xt : maxx;                    \
            miny = yt < miny ? yt : miny; maxy = yt > maxy ? yt : maxy;                    \
            within += ad <= atol + rtol * ay;                                              \
            double r = ay > REL_EPS ? ad / ay : 0.0;                                       \
            srel += r; mrel = r > mrel ? r : mrel;                                         \
        }                                                                                  \
        if (CHECK ? bad != 0 : !isfinite(sxx + syy)) return 1;                            \
        m->n += n; m->sxx += sxx; m->syy += syy; m->sdd += sdd; m->sad += sad; m->say += say; \
        m->sx += sx; m->sy += sy; m->srel += srel; m->sxy += sxy; m->within += within;     \
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
            m->sxy += xi * yi;                                                             \
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

MOMENTS_FAST(float, 0)
MOMENTS_FAST(double, 1)
MOMENTS_SLOW(float)
MOMENTS_SLOW(double)

/* KL divergence's pass, fused: for positions finite on both sides the normalised weights
 * a = max((x - lo_x) * s_x, floor) and b (the same for y); sums sa = sum a, sd = sum (b - a)
 * and tt = sum a * log(a / b), with log(a / b) = log1p(t), t = (a - b) / b (exact where a and
 * b are close), and sb = sum b.  Other positions add nothing.  s_x == 0 means a constant tensor:
 * not normalised.  KL = tt / sa + log1p(sd / sa) when the sums are close: sd summed directly, not as sum b - sum a, because KL is
 * sensitive to the ratio of the two sums to first order (a relative error e in sum b moves
 * KL by e itself, 1e-7 of a KL of 1e-8 at e = 1e-15), and sd's rounding is relative to the
 * small differences instead of to the sums.
 *
 * log1p is evaluated in the vectorised loop by its Taylor series where |t| <= 2^-6 (nine
 * terms: the truncation error is below 2^-54 |t|, the rounding a few ulp), which is nearly
 * every position of two close tensors; the positions farther apart are added by a scalar
 * loop calling libm's log1p, only in the blocks that have any (the loop keeps the largest
 * |t| of its block to know).
 *
 * Not a division-bound loop (measured, issue 24): with both of the kernel's divisions (this
 * one and the moments' relative error) replaced by multiplications it was at most 5 % faster,
 * and a division-free t here (float32's reciprocal,
 * Newton steps and one remainder correction by FMA) made it ~20 % slower: the loop is bound by
 * the two vector ports, which the divider's work overlaps. */
#define KL_SMALL 0x1p-6

static inline double log1p_small(double t) {
    /* Horner, highest term first: t - t^2/2 + t^3/3 - ... + t^9/9 */
    double p = 1.0 / 9;
    p = p * t - 1.0 / 8;
    p = p * t + 1.0 / 7;
    p = p * t - 1.0 / 6;
    p = p * t + 1.0 / 5;
    p = p * t - 1.0 / 4;
    p = p * t + 1.0 / 3;
    p = p * t - 1.0 / 2;
    p = p * t;
    return t + t * p;
}

/* The KL block: KL_BLOCK positions (or fewer) at a time, so that the scalar pass for the
 * positions far apart covers only the blocks that have one.  Two versions per type: MASKED
 * leaves out the positions where either side is NaN or Inf; the other is for a tensor known to
 * be finite on both sides (the moments pass compared every position), where `ok` is the
 * constant 1 and the compiler drops the masks (a fifth of the loop's work).  Per position the
 * loop does no more than it must (a few vector operations fewer than a position count and a
 * second subtraction took): sum (b - a) is summed as sum (a - b) and negated, and which blocks
 * need the scalar pass is told by the largest |t|, a max-reduction. */
#define KL_BLOCK 512

/* The scalar pass over one block, one position at a time (NaN/Inf positions left out) added to
 * `sumt`: with `all`, every term (log1p where |t| is beyond the series' range, the series
 * elsewhere: the block's whole sum again); without, only the terms beyond the series' range,
 * which the vector loop left out. */
#define KL_RESCAN(T)                                                                     \
    static inline __attribute__((always_inline)) double kl_rescan_##T(                  \
        const T *x, const T *y, Py_ssize_t n, double lo_x, double s_x,                     \
        double lo_y, double s_y, double floor_, int all, double sumt) {                    \
        for (Py_ssize_t i = 0; i < n; i++) {                                               \
            double xi = (double)x[i], yi = (double)y[i];                                   \
            if (!isfinite(xi) || !isfinite(yi)) continue;                                  \
            double a = s_x != 0.0 ? (xi - lo_x) * s_x : xi;                                \
            double b = s_y != 0.0 ? (yi - lo_y) * s_y : yi;                                \
            a = a > floor_ ? a : floor_;                                                   \
            b = b > floor_ ? b : floor_;                                                   \
            double t = (a - b) / b;                                                        \
            if (fabs(t) > KL_SMALL) sumt += a * log1p(t);                                  \
            else if (all) sumt += a * log1p_small(t);                                      \
        }                                                                                  \
        return sumt;                                                                       \
    }
KL_RESCAN(float)
KL_RESCAN(double)

#define KL_FUSED(T, NAME, MASKED)                                                        \
    TARGETS static void kl_block_##NAME(const T *x, const T *y, Py_ssize_t n, double lo_x, double s_x, \
                             double lo_y, double s_y, double floor_, double *out) {      \
        double suma = 0, sumb = 0, sumn = 0, sumt = 0, tmax = 0;                           \
        _Pragma("omp simd reduction(+:suma,sumb,sumn,sumt) reduction(max:tmax)")           \
        for (Py_ssize_t i = 0; i < n; i++) {                                               \
            double xi = (double)x[i], yi = (double)y[i];                                   \
            int ok = MASKED ? (xi - xi == 0.0) & (yi - yi == 0.0) : 1;                     \
            double a = s_x != 0.0 ? (xi - lo_x) * s_x : xi;                                \
            double b = s_y != 0.0 ? (yi - lo_y) * s_y : yi;                                \
            a = a > floor_ ? a : floor_;                                                   \
            b = b > floor_ ? b : floor_;                                                   \
            a = ok ? a : 0.0;                                                              \
            b = ok ? b : 0.0;                                                              \
            double d = a - b; /* 0 where not ok */                                         \
            suma += a; sumb += b; sumn += d;                                               \
            double t = d / (ok ? b : 1.0);                                                 \
            double at = fabs(t);                                                           \
            tmax = at > tmax ? at : tmax;                                                  \
            sumt += a * log1p_small(at > KL_SMALL ? 0.0 : t);                              \
        }                                                                                  \
        /* sum (b - a) is -sum (a - b) bit for bit: each term negated exactly, in the same order */ \
        double sumd = -sumn;                                                               \
        if (!isfinite(sumt))                                                               \
            /* a position the series cannot take (t NaN: b = 0 or not finite): the whole   \
             * block again, one position at a time, each term as the loop above takes it */ \
            sumt = kl_rescan_##T(x, y, n, lo_x, s_x, lo_y, s_y, floor_, 1, 0.0);           \
        else if (tmax > KL_SMALL)                                                          \
            sumt = kl_rescan_##T(x, y, n, lo_x, s_x, lo_y, s_y, floor_, 0, sumt);          \
        out[0] += suma; out[1] += sumb; out[2] += sumd; out[3] += sumt;                    \
    }

KL_FUSED(float, float, 1)
KL_FUSED(double, double, 1)
KL_FUSED(float, float_finite, 0)
KL_FUSED(double, double_finite, 0)

/* Whether both sides of n positions are finite everywhere (the segmented KL pass asks, to take
 * the unmasked loop exactly where the per-pair pass takes it: the same sums bit for bit). */
#define ALL_FINITE(T)                                                                    \
    TARGETS static int all_finite_##T(const T *x, const T *y, Py_ssize_t n) {            \
        long long bad = 0;                                                                 \
        _Pragma("omp simd reduction(+:bad)")                                               \
        for (Py_ssize_t i = 0; i < n; i++) bad += !((x[i] - x[i] == 0) & (y[i] - y[i] == 0)); \
        return bad == 0;                                                                   \
    }
ALL_FINITE(float)
ALL_FINITE(double)

/* The KL sums of a chunk, a block at a time.  finite: every position is finite on both sides. */
static void kl_chunk(const void *x, const void *y, Py_ssize_t n, int dbl, const double *prm, double floor_,
                     int finite, double *out) {
    for (Py_ssize_t s = 0; s < n; s += KL_BLOCK) {
        Py_ssize_t len = n - s < KL_BLOCK ? n - s : KL_BLOCK;
        if (dbl) {
            const double *px = (const double *)x + s, *py = (const double *)y + s;
            if (finite) kl_block_double_finite(px, py, len, prm[0], prm[1], prm[2], prm[3], floor_, out);
            else kl_block_double(px, py, len, prm[0], prm[1], prm[2], prm[3], floor_, out);
        } else {
            const float *px = (const float *)x + s, *py = (const float *)y + s;
            if (finite) kl_block_float_finite(px, py, len, prm[0], prm[1], prm[2], prm[3], floor_, out);
            else kl_block_float(px, py, len, prm[0], prm[1], prm[2], prm[3], floor_, out);
        }
    }
}

/* ---- Element types: every numeric type is converted on the fly, chunk by chunk, into a
 * thread's reused work buffer of the working type (float32 for the types float32 holds
 * exactly, float64 for the others), exactly as numpy's cast would. ---- */
enum { C_BOOL, C_I8, C_U8, C_I16, C_U16, C_I32, C_U32, C_I64, C_U64, C_F16, C_BF16, C_F32, C_F64, NCODES };
static const int ITEM[NCODES] = {1, 1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 8};

static inline float bits_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t float_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* IEEE half to float, exact (subnormals, infinities and NaN included), without F16C. */
static inline float half_float(uint16_t h) {
    uint32_t em = (uint32_t)(h & 0x7fff) << 13;
    uint32_t u = float_bits(bits_float(em) * 0x1p112f);
    u = em >= (0x7c00u << 13) ? (em | 0x7f800000u) : u;
    return bits_float(u | ((uint32_t)(h & 0x8000) << 16));
}

TARGETS static void half_to_float_portable(const uint16_t *restrict s, float *restrict d, Py_ssize_t n) {
    _Pragma("omp simd")
    for (Py_ssize_t i = 0; i < n; i++) d[i] = half_float(s[i]);
}

#if defined(__GNUC__) && defined(__x86_64__) && !defined(DUMPSCOPE_PORTABLE)
#include <immintrin.h>
#define HAVE_F16C_PATH 1
__attribute__((target("avx,f16c"))) static void half_to_float_f16c(const uint16_t *restrict s, float *restrict d,
                                                                    Py_ssize_t n) {
    Py_ssize_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(d + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(s + i))));
    for (; i < n; i++) d[i] = half_float(s[i]);
}
#endif

static int use_f16c = 0; /* set once at import from the CPU's feature bits */

static void half_to_float(const uint16_t *s, float *d, Py_ssize_t n) {
#ifdef HAVE_F16C_PATH
    if (use_f16c) { half_to_float_f16c(s, d, n); return; }
#endif
    half_to_float_portable(s, d, n);
}

TARGETS static void bf16_to_float(const uint16_t *restrict s, float *restrict d, Py_ssize_t n) {
    _Pragma("omp simd")
    for (Py_ssize_t i = 0; i < n; i++) d[i] = bits_float((uint32_t)s[i] << 16);
}

#define CAST(NAME, SRC, DST)                                                             \
    TARGETS static void NAME(const SRC *restrict s, DST *restrict d, Py_ssize_t n) {     \
        _Pragma("omp simd")                                                                \
        for (Py_ssize_t i = 0; i < n; i++) d[i] = (DST)s[i];                               \
    }
CAST(i8_f, int8_t, float) CAST(u8_f, uint8_t, float) CAST(i16_f, int16_t, float) CAST(u16_f, uint16_t, float)
CAST(i8_d, int8_t, double) CAST(u8_d, uint8_t, double) CAST(i16_d, int16_t, double)
CAST(u16_d, uint16_t, double) CAST(i32_d, int32_t, double) CAST(u32_d, uint32_t, double)
CAST(i64_d, int64_t, double) CAST(u64_d, uint64_t, double) CAST(f_d, float, double)

/* s (n items of `code`) as the working type in d; 0 when that type cannot be converted. */
static int convert(int code, int dbl, const char *s, void *d, Py_ssize_t n) {
    if (dbl) {
        double *o = d;
        switch (code) {
        case C_BOOL: case C_U8: u8_d((const uint8_t *)s, o, n); return 1;
        case C_I8: i8_d((const int8_t *)s, o, n); return 1;
        case C_I16: i16_d((const int16_t *)s, o, n); return 1;
        case C_U16: u16_d((const uint16_t *)s, o, n); return 1;
        case C_I32: i32_d((const int32_t *)s, o, n); return 1;
        case C_U32: u32_d((const uint32_t *)s, o, n); return 1;
        case C_I64: i64_d((const int64_t *)s, o, n); return 1;
        case C_U64: u64_d((const uint64_t *)s, o, n); return 1;
        case C_F32: f_d((const float *)s, o, n); return 1;
        case C_F16: case C_BF16: {
            float tmp[1024];
            for (Py_ssize_t k = 0; k < n; k += 1024) {
                Py_ssize_t m = n - k < 1024 ? n - k : 1024;
                if (code == C_F16) half_to_float((const uint16_t *)s + k, tmp, m);
                else bf16_to_float((const uint16_t *)s + k, tmp, m);
                f_d(tmp, o + k, m);
            }
            return 1;
        }
        default: return 0;
        }
    }
    float *o = d;
    switch (code) {
    case C_BOOL: case C_U8: u8_f((const uint8_t *)s, o, n); return 1;
    case C_I8: i8_f((const int8_t *)s, o, n); return 1;
    case C_I16: i16_f((const int16_t *)s, o, n); return 1;
    case C_U16: u16_f((const uint16_t *)s, o, n); return 1;
    case C_F16: half_to_float((const uint16_t *)s, o, n); return 1;
    case C_BF16: bf16_to_float((const uint16_t *)s, o, n); return 1;
    default: return 0;
    }
}

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
    return Py_BuildValue("{s:L,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:L,s:L,s:L,s:L,s:L,s:L,s:L}",
                         "n", m.n, "sxx", m.sxx, "syy", m.syy, "sdd", m.sdd, "sad", m.sad, "say", m.say, "mad", m.mad,
                         "sx", m.sx, "sy", m.sy, "srel", m.srel, "mrel", m.mrel, "minx", m.minx,
                         "maxx", m.maxx, "miny", m.miny, "maxy", m.maxy, "sxy", m.sxy, "within", m.within,
                         "nan_x", m.nan_x, "nan_y", m.nan_y, "inf_x", m.inf_x, "inf_y", m.inf_y,
                         "mismatch", m.mismatch, "matched_nonfinite", m.matched);
}

static void moments_init(Moments *m) {
    memset(m, 0, sizeof *m);
    m->minx = m->miny = INFINITY;
    m->maxx = m->maxy = -INFINITY;
}

/* Adds a chunk's sums to the running ones: the order in which the chunks of a tensor are
 * merged is fixed (first to last), so the sums never depend on who computed them. */
static void moments_merge(Moments *m, const Moments *p) {
    m->n += p->n; m->sxx += p->sxx; m->syy += p->syy; m->sdd += p->sdd; m->sad += p->sad;
    m->say += p->say; m->sx += p->sx; m->sy += p->sy; m->srel += p->srel; m->sxy += p->sxy;
    m->within += p->within;
    m->nan_x += p->nan_x; m->nan_y += p->nan_y; m->inf_x += p->inf_x; m->inf_y += p->inf_y;
    m->mismatch += p->mismatch; m->matched += p->matched;
    if (p->mad > m->mad) m->mad = p->mad;
    if (p->mrel > m->mrel) m->mrel = p->mrel;
    if (p->minx < m->minx) m->minx = p->minx;
    if (p->maxx > m->maxx) m->maxx = p->maxx;
    if (p->miny < m->miny) m->miny = p->miny;
    if (p->maxy > m->maxy) m->maxy = p->maxy;
}

/* One chunk's sums from zero: the vectorised loop, or the scalar one where a NaN/Inf is. */
static void moments_chunk(const void *x, const void *y, Py_ssize_t n, int dbl, double rtol, double atol,
                          Moments *part) {
    moments_init(part);
    if (dbl) {
        if (moments_fast_double(x, y, n, rtol, atol, part)) moments_slow_double(x, y, n, rtol, atol, part);
    } else {
        if (moments_fast_float(x, y, n, rtol, atol, part)) moments_slow_float(x, y, n, rtol, atol, part);
    }
}

static double inverse_span(double lo, double hi) { return hi > lo ? 1.0 / (hi - lo) : 0.0; }

/* A thread's two work buffers (one per side), grown when needed and reused for every
 * chunk of every tensor: touched once, then no page faults and no allocation. */
static __thread char *work_buf[2];
static __thread Py_ssize_t work_cap[2];

static void *work_area(int side, Py_ssize_t bytes) {
    if (work_cap[side] < bytes) {
        void *p = NULL;
        free(work_buf[side]);
        work_buf[side] = NULL;
        work_cap[side] = 0;
        if (posix_memalign(&p, 64, (size_t)bytes)) return NULL;
        memset(p, 0, (size_t)bytes);
        work_buf[side] = p;
        work_cap[side] = bytes;
    }
    return work_buf[side];
}

typedef struct {
    const char *p;
    int code;
    void *buf; /* NULL: the side is already in the working type and is read in place */
} Side;

static const void *side_chunk(const Side *s, int dbl, Py_ssize_t start, Py_ssize_t len) {
    const char *src = s->p + start * ITEM[s->code];
    if (s->buf == NULL) return src;
    convert(s->code, dbl, src, s->buf, len);
    return s->buf;
}

static int convertible(int code, int dbl) {
    if (dbl) return code != C_F64;
    return code == C_BOOL || code == C_I8 || code == C_U8 || code == C_I16 || code == C_U16 || code == C_F16 ||
           code == C_BF16;
}

/* The golden's energy per channel: sum y^2 over its finite values, for the worst channel slice's
 * first test (see slices.slice_metrics), taken from each chunk while the moments pass has it in
 * cache instead of in a pass of its own.  Position p is in channel (p / inner) % channels (the
 * layout of an (N, C, inner) array); squares of float32 values are exact in double. */
#define SUMSQ(T)                                                                         \
    TARGETS static double sumsq_##T(const T *y, Py_ssize_t n) {                          \
        double s = 0;                                                                      \
        _Pragma("omp simd reduction(+:s)")                                                 \
        for (Py_ssize_t i = 0; i < n; i++) {                                               \
            double v = (double)y[i];                                                       \
            s += v - v == 0.0 ? v * v : 0.0;                                               \
        }                                                                                  \
        return s;                                                                          \
    }
SUMSQ(float)
SUMSQ(double)

static int get_out(PyObject *oo, Py_buffer *bo, Py_ssize_t need);

static void channel_energy(const void *y, Py_ssize_t start, Py_ssize_t len, int dbl, Py_ssize_t channels,
                           Py_ssize_t inner, double *out) {
    for (Py_ssize_t p = start, end = start + len; p < end;) {
        Py_ssize_t run = (p / inner + 1) * inner, ch = (p / inner) % channels;
        if (run > end) run = end;
        out[ch] += dbl ? sumsq_double((const double *)y + (p - start), run - p)
                       : sumsq_float((const float *)y + (p - start), run - p);
        p = run;
    }
}

/* pair(x, y, x_code, y_code, dbl, n, rtol, atol, floor, chunk): every sum of one pair in one
 * call.  x/y: the raw bytes of n items of their type codes (any numeric type, converted on
 * the fly chunk by chunk); dbl: work in float64 (else float32).  The moments pass runs
 * chunk by chunk exactly as `moments` on each chunk, merged in order; then the fused KL
 * pass, over the converted chunk still in cache when the tensor is one chunk.  Optional: channels,
 * inner and a float64 buffer of `channels` values that receives the golden's energy per channel
 * (see channel_energy; channels 0: none). */
static PyObject *pair(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *ox, *oy;
    int cx, cy, dbl;
    Py_ssize_t n, chunk, channels = 0, inner = 1;
    double rtol, atol, floor_;
    PyObject *oe = NULL;
    if (!PyArg_ParseTuple(args, "OOiipnddn" "d|nnO", &ox, &oy, &cx, &cy, &dbl, &n, &rtol, &atol, &chunk, &floor_,
                          &channels, &inner, &oe))
        return NULL;
    if (cx < 0 || cx >= NCODES || cy < 0 || cy >= NCODES || n < 0 || chunk < 1) {
        PyErr_SetString(PyExc_ValueError, "bad type code, count or chunk");
        return NULL;
    }
    if (channels < 0 || inner < 1 || channels > n || inner > n ||
        (channels && (oe == NULL || n % (channels * inner) != 0))) {
        PyErr_SetString(PyExc_ValueError, "channels must divide the count in runs of inner, with an output buffer");
        return NULL;
    }
    Py_buffer be = {0};
    if (channels && get_out(oe, &be, channels * 8) < 0) return NULL;
    double *energy = channels ? be.buf : NULL;
    for (Py_ssize_t c = 0; c < channels; c++) energy[c] = 0.0;
    int w = dbl ? C_F64 : C_F32;
    if ((cx != w && !convertible(cx, dbl)) || (cy != w && !convertible(cy, dbl))) {
        PyErr_SetString(PyExc_TypeError, "a side's type does not convert exactly to the working type");
        return NULL;
    }
    Py_buffer bx, by;
    if (PyObject_GetBuffer(ox, &bx, PyBUF_C_CONTIGUOUS) < 0) goto no_pair;
    if (PyObject_GetBuffer(oy, &by, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&bx);
        goto no_pair;
    }
    PyObject *res = NULL;
    if (bx.len != n * ITEM[cx] || by.len != n * ITEM[cy]) {
        PyErr_SetString(PyExc_ValueError, "buffer sizes do not match the count and types");
        goto done;
    }
    Py_ssize_t span = n < chunk ? n : chunk, wsize = dbl ? 8 : 4;
    Side sx = {bx.buf, cx, NULL}, sy = {by.buf, cy, NULL};
    if ((cx != w && !(sx.buf = work_area(0, span * wsize + 64))) ||
        (cy != w && !(sy.buf = work_area(1, span * wsize + 64)))) {
        PyErr_NoMemory();
        goto done;
    }
    Moments m, part;
    double kl[4] = {0, 0, 0, 0};
    moments_init(&m);
    Py_BEGIN_ALLOW_THREADS
    const void *px = NULL, *py = NULL;
    for (Py_ssize_t s = 0; s < n; s += chunk) {
        Py_ssize_t len = n - s < chunk ? n - s : chunk;
        px = side_chunk(&sx, dbl, s, len);
        py = side_chunk(&sy, dbl, s, len);
        moments_chunk(px, py, len, dbl, rtol, atol, &part);
        moments_merge(&m, &part);
        if (channels) channel_energy(py, s, len, dbl, channels, inner, energy);
    }
    if (m.n) {
        const int finite = m.n == n; /* no position left out: the KL pass needs no masks */
        const double prm[4] = {m.minx, inverse_span(m.minx, m.maxx), m.miny, inverse_span(m.miny, m.maxy)};
        if (n <= chunk) {
            kl_chunk(px, py, n, dbl, prm, floor_, finite, kl);
        } else {
            /* last chunk first: the moments pass just read the tensor's end, still in cache */
            for (Py_ssize_t s = (n - 1) / chunk * chunk; s >= 0; s -= chunk) {
                Py_ssize_t len = n - s < chunk ? n - s : chunk;
                kl_chunk(side_chunk(&sx, dbl, s, len), side_chunk(&sy, dbl, s, len), len, dbl, prm, floor_, finite,
                         kl);
            }
        }
    }
    Py_END_ALLOW_THREADS
    res = Py_BuildValue("{s:L,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:L,s:L,s:L,s:L,s:L,s:L,s:L,"
                        "s:d,s:d,s:d,s:d}",
                        "n", m.n, "sxx", m.sxx, "syy", m.syy, "sdd", m.sdd, "sad", m.sad, "say", m.say, "mad", m.mad,
                        "sx", m.sx, "sy", m.sy, "srel", m.srel, "mrel", m.mrel, "minx", m.minx,
                        "maxx", m.maxx, "miny", m.miny, "maxy", m.maxy, "sxy", m.sxy, "within", m.within,
                        "nan_x", m.nan_x, "nan_y", m.nan_y, "inf_x", m.inf_x, "inf_y", m.inf_y,
                        "mismatch", m.mismatch, "matched_nonfinite", m.matched,
                        "kl_a", kl[0], "kl_b", kl[1], "kl_d", kl[2], "kl_t", kl[3]);
done:
    PyBuffer_Release(&bx);
    PyBuffer_Release(&by);
    if (channels) PyBuffer_Release(&be);
    return res;
no_pair:
    if (channels) PyBuffer_Release(&be);
    return NULL;
}

/* The segmented variants: many small tensors concatenated into one buffer per side, with
 * offsets[k]..offsets[k+1] the k-th tensor.  Each segment runs exactly the per-tensor
 * loops above (a zeroed Moments each), so every sum is bit for bit what `moments` gives
 * for that tensor alone; only the Python call per tensor is saved.  Results are written
 * as rows of SEG_FIELDS doubles (counts are exact in a double below 2**53). */
#define SEG_FIELDS 23

static void moments_row(const Moments *m, double *row) {
    const double v[SEG_FIELDS] = {(double)m->n, m->sxx, m->syy, m->sdd, m->sad, m->say, m->mad, m->sx, m->sy,
                                  m->srel, m->mrel, m->minx, m->maxx, m->miny, m->maxy, (double)m->within,
                                  (double)m->nan_x, (double)m->nan_y, (double)m->inf_x, (double)m->inf_y,
                                  (double)m->mismatch, (double)m->matched, m->sxy};
    memcpy(row, v, sizeof v);
}

static void moments_segment(const char *x, const char *y, Py_ssize_t n, int dbl, double rtol, double atol, double *row) {
    Moments m;
    moments_chunk(x, y, n, dbl, rtol, atol, &m);
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

/* The fused KL pass over every segment: params holds 4 doubles per segment (lo_x, s_x,
 * lo_y, s_y); out receives 4 doubles per segment (sum a, sum b, sum (b - a), sum a log(a / b)). */
static PyObject *kl_segments(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *ox, *oy, *oo, *op, *os;
    double floor_;
    if (!PyArg_ParseTuple(args, "OOOOdO", &ox, &oy, &oo, &op, &floor_, &os)) return NULL;
    Py_buffer bx, by, bo, bp, bs;
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
    if (get_out(os, &bs, segs * 4 * 8) < 0) goto fail_params;
    const long long *off = bo.buf;
    const double *prm = bp.buf;
    double *sums = bs.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < segs; k++) {
        Py_ssize_t s = (Py_ssize_t)off[k], len = (Py_ssize_t)(off[k + 1] - off[k]);
        double *o = sums + 4 * k;
        const char *px = (const char *)bx.buf + s * item, *py = (const char *)by.buf + s * item;
        int finite = dbl ? all_finite_double((const double *)px, (const double *)py, len)
                         : all_finite_float((const float *)px, (const float *)py, len);
        o[0] = o[1] = o[2] = o[3] = 0;
        kl_chunk(px, py, len, dbl, prm + 4 * k, floor_, finite, o);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&bs);
    PyBuffer_Release(&bp);
    PyBuffer_Release(&bo);
    PyBuffer_Release(&bx);
    PyBuffer_Release(&by);
    Py_RETURN_NONE;
fail_params:
    PyBuffer_Release(&bp);
fail_off:
    PyBuffer_Release(&bo);
fail_pair:
    PyBuffer_Release(&bx);
    PyBuffer_Release(&by);
    return NULL;
}

/* f16c(flag) -> the previous setting: a test runs the portable half conversion on a CPU that
 * has F16C (flag 0), and back; a flag of 1 where the CPU lacks it is ignored. */
static PyObject *f16c(PyObject *Py_UNUSED(self), PyObject *arg) {
    int want = PyObject_IsTrue(arg), was = use_f16c;
    if (want < 0) return NULL;
#ifdef HAVE_F16C_PATH
    use_f16c = want && __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
#endif
    return PyBool_FromLong(was);
}

static PyMethodDef methods[] = {
    {"f16c", f16c, METH_O, "f16c(flag) -> bool: use F16C for half conversion (where the CPU has it); the previous"},
    {"moments", moments, METH_VARARGS,
     "moments(x, y, rtol, atol) -> dict of float64 sums over positions finite on both sides"},
    {"pair", pair, METH_VARARGS,
     "pair(x, y, x_code, y_code, dbl, n, rtol, atol, chunk, floor[, channels, inner, energy]) -> dict: moments' sums "
     "and kl_a, kl_b, kl_d, kl_t; the golden's energy per channel into energy"},
    {"moments_segments", moments_segments, METH_VARARGS,
     "moments_segments(x, y, offsets, rtol, atol, out): per segment, moments' sums as 22 float64 in out"},
    {"kl_segments", kl_segments, METH_VARARGS,
     "kl_segments(x, y, offsets, params, floor, out): the KL pass per segment, (sum a, sum b, sum b - a, sum a log(a/b))"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", NULL, -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) {
#ifdef HAVE_F16C_PATH
    __builtin_cpu_init();
    use_f16c = __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
#endif
    return PyModule_Create(&module);
}
