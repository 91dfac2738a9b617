/* _cmetrics: the layout metrics hot path (metrics.py) in C.
 *
 * Why: speed. The 12 metrics were about two thirds of an env step in pure
 * Python (~50 of ~75 us); here they take a few microseconds, and
 * bench/layout_speed.py's DesignGymEpisode.step goes from ~13,000 to ~45,000
 * steps/s on one core (target: 20,000).
 *
 * Each function below mirrors the metrics.py function of the same name
 * operation for operation, so results are bit-identical (tests compare with ==):
 * same element order, left-to-right sums, ``x ** 2`` as CPython's float_pow
 * computes it (libm pow, never x * x), math.exp/log/sqrt as libm calls with
 * CPython's domain checks, math.dist as CPython 3.11's vector_norm, and stable
 * sorts. Build with -O2 -fno-fast-math -ffp-contract=off (setup.py): an FMA
 * contraction or fast-math reassociation would change the last bits.
 *
 * Anything this file does not reproduce exactly makes ``evaluate`` return None
 * and metrics.py computes the result in Python instead: a box that is not four
 * finite floats within +-1e100 (so nothing overflows to inf or NaN), a z that is
 * not an int (or float) of magnitude <= 2**53, an element id the task does not
 * have, a math domain error (Python raises ValueError there), more than MAXN
 * elements. ``pack`` returns None for a task it cannot take (then every call
 * takes the Python path).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <math.h>
#include <string.h>

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "_cmetrics needs plain double arithmetic (no excess precision); Python fallback is used"
#endif

#define MAXN 64           /* elements per layout / task */
#define NMETRICS 12
#define BOX_LIMIT 1e100   /* |coordinate| bound: products and sums stay finite */
#define Z_LIMIT 9007199254740992.0 /* 2**53: z converts to double exactly */

static const double EPS = 1e-9;
static const double FALLBACK = 0.5;
static const double ALIGNMENT_TAU = 0.055;
static const double SPACING_TAU_CV = 0.70;
static const double BALANCE_TAU = 0.22;
static const double BALANCE_TARGET_X = 0.5, BALANCE_TARGET_Y = 0.5;
static const double GROUPING_TAU_WITHIN = 0.22;
static const double GROUPING_TAU_BETWEEN = 0.28;
static const double READING_SAME_ROW_DY = 0.05;
static const double ASPECT_TAU = 0.9;
static const double TEXT_CAPACITY_PER_AREA = 900.0;
static const double TEXT_FIT_TAU = 0.45;
static const double NEG_SPACE_RHYTHM_SCALE = 0.18;
static const double NEG_SPACE_WHITESPACE_TOL = 0.30;
static const double INTENT_TAU = 0.65;
static const double INSTRUCTION_TAU = 0.22;
static const double HARD_ASPECT_LOG_TOL = 0.18;

static const char *const VIOLATIONS[] = {
    "min_size_violation", "max_size_violation", "outside_safe_region", "aspect_ratio_violation",
};

/* Read through volatiles so the compiler cannot fold pow(x, 2.0) into x * x or
   evaluate exp(-50.0) at compile time: the libm calls must happen at run time,
   as they do in CPython. */
static volatile double TWO = 2.0;
static volatile double MINUS_FIFTY = -50.0;
static double EXP_FLOOR; /* math.exp(-50.0), set at import */
static PyObject *S_ID, *S_BBOX, *S_Z; /* interned attribute names, set at import */

/* --------------------------------------------------------------------------- per-task data */

typedef struct {
    Py_ssize_t n;
    PyObject *ids;   /* tuple of str, the task's element order */
    PyObject *index; /* dict id -> task position */
    PyObject *names; /* METRIC_NAMES: the result dict's keys */
    double importance[MAXN], content_len[MAXN], aspect[MAXN];
    char is_text[MAXN], locked[MAXN], has_intent[MAXN];
    int group[MAXN]; /* group number, by first appearance in task order */
    int n_groups;
    double intent_x[MAXN], intent_y[MAXN], intent_diag[MAXN];
    double min_w[MAXN], min_h[MAXN], max_w[MAXN], max_h[MAXN]; /* eps slack included */
    int has_reading_pairs;
    Py_ssize_t n_reading;
    int *reading_a, *reading_b; /* task positions of reading pairs with both ids known */
    double occ_target, occ_tol, text_target, margin, canvas;
    double guides[3];
    Py_ssize_t n_weights;
    int weight_metric[NMETRICS];
    double weight[NMETRICS];
} Task;

/* --------------------------------------------------------------------------- one layout */

typedef struct {
    const Task *t;
    Py_ssize_t n;
    int tk[MAXN];  /* task position of layout element k */
    int pos[MAXN]; /* first layout position of task element i, or -1 */
    double X[MAXN], Y[MAXN], W[MAXN], H[MAXN], R[MAXN], B[MAXN], CX[MAXN], CY[MAXN], A[MAXN],
        Z[MAXN];
    double area;
    int fail; /* a math domain error: Python raises, so defer to it */
} View;

/* --------------------------------------------------------------------------- CPython's math */

/* math.exp: libm exp; an overflow from a finite argument raises OverflowError. */
static double py_exp(View *v, double x)
{
    double r = exp(x);
    if ((isnan(r) && !isnan(x)) || (isinf(r) && isfinite(x)))
        v->fail = 1;
    return r;
}

/* math.log (m_log): libm log for finite x > 0; nan -> nan, inf -> inf; else ValueError. */
static double py_log(View *v, double x)
{
    if (isfinite(x)) {
        if (x > 0.0)
            return log(x);
        v->fail = 1;
        return 0.0;
    }
    if (isnan(x) || x > 0.0)
        return x;
    v->fail = 1;
    return 0.0;
}

/* math.sqrt: ValueError for a negative argument. */
static double py_sqrt(View *v, double x)
{
    double r = sqrt(x);
    if (isnan(r) && !isnan(x))
        v->fail = 1;
    return r;
}

/* x ** 2 for a float x (float_pow in Objects/floatobject.c): its special cases,
   then libm pow(|x|, 2.0); an overflow raises OverflowError. */
static double py_sq(View *v, double x)
{
    double r;
    if (isnan(x))
        return x;
    if (isinf(x))
        return fabs(x);
    if (x == 0.0)
        return 0.0;
    if (x < 0.0)
        x = -x;
    if (x == 1.0)
        return 1.0;
    r = pow(x, TWO);
    if (isinf(r))
        v->fail = 1;
    return r;
}

/* math.dist of two 2-D points: CPython 3.11's vector_norm (Modules/mathmodule.c),
   not hypot: power-of-two scaling, Dekker-split squares, compensated sums and a
   correction step. */
static double vector_norm(Py_ssize_t n, double *vec, double max, int found_nan)
{
    const double T27 = 134217729.0; /* ldexp(1.0, 27) + 1.0 */
    double x, scale, oldcsum, csum = 1.0, frac1 = 0.0, frac2 = 0.0, frac3 = 0.0;
    double t, hi, lo, h;
    int max_e;
    Py_ssize_t i;

    if (isinf(max))
        return max;
    if (found_nan)
        return Py_NAN;
    if (max == 0.0 || n <= 1)
        return max;
    frexp(max, &max_e);
    if (max_e >= -1023) {
        scale = ldexp(1.0, -max_e);
        for (i = 0; i < n; i++) {
            x = vec[i];
            x *= scale;
            t = x * T27;
            hi = t - (t - x);
            lo = x - hi;
            x = hi * hi;
            oldcsum = csum;
            csum += x;
            frac1 += (oldcsum - csum) + x;
            x = 2.0 * hi * lo;
            oldcsum = csum;
            csum += x;
            frac2 += (oldcsum - csum) + x;
            frac3 += lo * lo;
        }
        h = sqrt(csum - 1.0 + (frac1 + frac2 + frac3));
        x = h;
        t = x * T27;
        hi = t - (t - x);
        lo = x - hi;
        x = -hi * hi;
        oldcsum = csum;
        csum += x;
        frac1 += (oldcsum - csum) + x;
        x = -2.0 * hi * lo;
        oldcsum = csum;
        csum += x;
        frac2 += (oldcsum - csum) + x;
        x = -lo * lo;
        oldcsum = csum;
        csum += x;
        frac3 += (oldcsum - csum) + x;
        x = csum - 1.0 + (frac1 + frac2 + frac3);
        return (h + x / (2.0 * h)) / scale;
    }
    /* max_e < -1023: ldexp(1.0, -max_e) would overflow, so divide by max */
    for (i = 0; i < n; i++) {
        x = vec[i];
        x /= max;
        x = x * x;
        oldcsum = csum;
        csum += x;
        frac1 += (oldcsum - csum) + x;
    }
    return max * sqrt(csum - 1.0 + frac1);
}

static double py_dist(double px, double py, double qx, double qy)
{
    double diffs[2], max = 0.0;
    int found_nan = 0;
    diffs[0] = fabs(px - qx);
    found_nan |= isnan(diffs[0]);
    if (diffs[0] > max)
        max = diffs[0];
    diffs[1] = fabs(py - qy);
    found_nan |= isnan(diffs[1]);
    if (diffs[1] > max)
        max = diffs[1];
    return vector_norm(2, diffs, max, found_nan);
}

/* --------------------------------------------------------------------------- helpers */

static double safe_exp(View *v, double value)
{
    value = value < 50.0 ? value : 50.0;
    return py_exp(v, value > -50.0 ? value : -50.0);
}

static double clamp01(double x)
{
    x = x < 1.0 ? x : 1.0;
    return x > 0.0 ? x : 0.0;
}

/* Python's max(a, b) / min(a, b): the first argument unless the second is larger/smaller. */
static double py_max(double a, double b) { return b > a ? b : a; }
static double py_min(double a, double b) { return b < a ? b : a; }

static double mean(const double *values, Py_ssize_t n)
{
    double total = 0.0;
    if (n == 0)
        return 0.0;
    for (Py_ssize_t i = 0; i < n; i++)
        total += values[i];
    return total / (double)n;
}

static double pstd(View *v, const double *values, Py_ssize_t n)
{
    double m = 0.0, acc = 0.0;
    if (n < 2)
        return 0.0;
    for (Py_ssize_t i = 0; i < n; i++)
        m += values[i];
    m = m / (double)n;
    for (Py_ssize_t i = 0; i < n; i++)
        acc += py_sq(v, values[i] - m);
    return py_sqrt(v, acc / (double)n);
}

/* order[] = 0..n-1 stably sorted by values[] (sorted(range(n), key=values.__getitem__)). */
static void argsort(const double *values, Py_ssize_t n, int *order)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        int k = (int)i;
        Py_ssize_t j = i;
        while (j > 0 && values[k] < values[order[j - 1]]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
}

/* values sorted in place, stably (sorted(values)) */
static void sort_values(double *values, Py_ssize_t n)
{
    for (Py_ssize_t i = 1; i < n; i++) {
        double a = values[i];
        Py_ssize_t j = i;
        while (j > 0 && a < values[j - 1]) {
            values[j] = values[j - 1];
            j--;
        }
        values[j] = a;
    }
}

/* _rank: 1-based ranks, ties get their average rank. */
static void rank(const double *values, Py_ssize_t n, double *ranks)
{
    int order[MAXN];
    argsort(values, n, order);
    Py_ssize_t i = 0;
    while (i < n) {
        Py_ssize_t j = i;
        while (j + 1 < n && values[order[j + 1]] == values[order[i]])
            j++;
        double avg = (double)(i + j + 2) / 2.0;
        for (Py_ssize_t k = i; k <= j; k++)
            ranks[order[k]] = avg;
        i = j + 1;
    }
}

/* _spearman(_RankStats(a), b) */
static double spearman(View *v, const double *a, const double *b, Py_ssize_t n)
{
    double ra[MAXN], rb[MAXN], ma, den_a, mb, num = 0.0, acc = 0.0, den_b;
    if (n < 2)
        return 0.0;
    rank(a, n, ra);
    ma = mean(ra, n);
    for (Py_ssize_t i = 0; i < n; i++)
        acc += py_sq(v, ra[i] - ma);
    den_a = py_sqrt(v, acc);
    acc = 0.0;
    rank(b, n, rb);
    mb = ((double)(n * (n + 1)) / 2.0) / (double)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        double dy = rb[i] - mb;
        num += (ra[i] - ma) * dy;
        acc += py_sq(v, dy);
    }
    den_b = py_sqrt(v, acc);
    if (den_a <= EPS || den_b <= EPS)
        return 0.0;
    return num / (den_a * den_b);
}

/* --------------------------------------------------------------------------- metrics */

static double overlap(View *v)
{
    const double *X = v->X, *Y = v->Y, *R = v->R, *B = v->B;
    Py_ssize_t n = v->n;
    double total_overlap = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        double ax = X[i], ay = Y[i], ar = R[i], ab = B[i];
        for (Py_ssize_t j = i + 1; j < n; j++) {
            double br = R[j], bx = X[j];
            double dx = (br < ar ? br : ar) - (bx > ax ? bx : ax);
            if (dx > 0.0) {
                double bb = B[j], by = Y[j];
                double dy = (bb < ab ? bb : ab) - (by > ay ? by : ay);
                if (dy > 0.0)
                    total_overlap += dx * dy;
            }
        }
    }
    return clamp01(safe_exp(v, -(total_overlap / (v->area + EPS))));
}

/* _nearest_other: for the 3n anchors firsts + mids + lasts (anchor k belongs to
   element k % n), min |anchor - c| over the guides and the other elements' anchors. */
static void nearest_other(const View *v, const double *firsts, const double *mids,
                          const double *lasts, double *out)
{
    Py_ssize_t n = v->n, m = 3 * n + 3;
    double values[3 * MAXN + 3];
    int owners[3 * MAXN + 3], order[3 * MAXN + 3];
    for (Py_ssize_t k = 0; k < n; k++) {
        values[k] = firsts[k];
        values[n + k] = mids[k];
        values[2 * n + k] = lasts[k];
        owners[k] = owners[n + k] = owners[2 * n + k] = (int)k;
    }
    for (int g = 0; g < 3; g++) {
        values[3 * n + g] = v->t->guides[g];
        owners[3 * n + g] = -1;
    }
    argsort(values, m, order);
    for (Py_ssize_t k = 0; k < m; k++)
        out[k] = Py_HUGE_VAL;
    int last_owner = -2; /* nothing seen yet */
    double last = Py_NAN, other = Py_NAN;
    for (Py_ssize_t i = 0; i < m; i++) {
        int k = order[i], owner = owners[k];
        double a = values[k];
        if (owner != last_owner) {
            if (last_owner != -2)
                out[k] = a - last;
            other = last;
            last_owner = owner;
        }
        else if (other == other) {
            out[k] = a - other;
        }
        last = a;
    }
    last_owner = -2;
    last = other = Py_NAN;
    for (Py_ssize_t i = m - 1; i >= 0; i--) {
        int k = order[i], owner = owners[k];
        double a = values[k], d;
        if (owner != last_owner) {
            if (last_owner != -2) {
                d = last - a;
                if (d < out[k])
                    out[k] = d;
            }
            other = last;
            last_owner = owner;
        }
        else if (other == other) {
            d = other - a;
            if (d < out[k])
                out[k] = d;
        }
        last = a;
    }
}

static double alignment(View *v)
{
    Py_ssize_t n = v->n;
    double dx[3 * MAXN + 3], dy[3 * MAXN + 3], ex[3 * MAXN], ey[3 * MAXN], t, total = 0.0;
    if (n < 2)
        return FALLBACK;
    nearest_other(v, v->X, v->CX, v->R, dx);
    nearest_other(v, v->Y, v->CY, v->B, dy);
    for (Py_ssize_t k = 0; k < 3 * n; k++) {
        t = -dx[k] / ALIGNMENT_TAU;
        ex[k] = t > -50.0 ? py_exp(v, t) : EXP_FLOOR;
        t = -dy[k] / ALIGNMENT_TAU;
        ey[k] = t > -50.0 ? py_exp(v, t) : EXP_FLOOR;
    }
    for (Py_ssize_t k = 0; k < n; k++)
        total = total + ex[k] + ex[n + k] + ex[2 * n + k] + ey[k] + ey[n + k] + ey[2 * n + k];
    return clamp01(total / (double)(6 * n));
}

static double spacing(View *v)
{
    const double *X = v->X, *Y = v->Y, *R = v->R, *B = v->B;
    Py_ssize_t n = v->n, count = 0;
    double gaps[2 * MAXN], cv;
    int order[MAXN];
    argsort(X, n, order);
    for (Py_ssize_t i = 0; i + 1 < n; i++) {
        int a = order[i], b = order[i + 1];
        double gap = X[b] - R[a];
        double ba = B[a], bb = B[b], ya = Y[a], yb = Y[b];
        double other = (bb < ba ? bb : ba) - (yb > ya ? yb : ya);
        if (gap > 0 && other > 0)
            gaps[count++] = gap;
    }
    argsort(Y, n, order);
    for (Py_ssize_t i = 0; i + 1 < n; i++) {
        int a = order[i], b = order[i + 1];
        double gap = Y[b] - B[a];
        double ra = R[a], rb = R[b], xa = X[a], xb = X[b];
        double other = (rb < ra ? rb : ra) - (xb > xa ? xb : xa);
        if (gap > 0 && other > 0)
            gaps[count++] = gap;
    }
    if (count < 2)
        return FALLBACK;
    cv = pstd(v, gaps, count) / (mean(gaps, count) + EPS);
    return clamp01(safe_exp(v, -(cv / SPACING_TAU_CV)));
}

static double balance(View *v)
{
    double total_mass = 0.0, sx = 0.0, sy = 0.0, cx, cy, dist;
    for (Py_ssize_t k = 0; k < v->n; k++) {
        double m = v->A[k] * v->t->importance[v->tk[k]];
        total_mass += m;
        sx += m * v->CX[k];
        sy += m * v->CY[k];
    }
    if (total_mass <= EPS)
        return 0.0;
    cx = sx / total_mass;
    cy = sy / total_mass;
    dist = py_sqrt(v, py_sq(v, cx - BALANCE_TARGET_X) + py_sq(v, cy - BALANCE_TARGET_Y));
    return clamp01(safe_exp(v, -(dist / BALANCE_TAU)));
}

static double hierarchy(View *v)
{
    Py_ssize_t n = v->n;
    double nn = (double)(n > 1 ? n : 1), salience[MAXN], importance[MAXN], rho;
    for (Py_ssize_t k = 0; k < n; k++) {
        salience[k] = 0.55 * py_log(v, v->A[k] + 1e-4) - 0.22 * v->Y[k]
                      + 0.18 * (1.0 - fabs(v->CX[k] - 0.5) / 0.5) + 0.10 * v->Z[k] / nn;
        importance[k] = v->t->importance[v->tk[k]];
    }
    rho = spearman(v, importance, salience, n);
    return clamp01((1.0 + rho) / 2.0);
}

static double grouping(View *v)
{
    Py_ssize_t n = v->n;
    int layout_group[MAXN], renumber[MAXN], n_groups = 0, pairs = 0;
    double gcx[MAXN], gcy[MAXN], within = 0.0, between = 0.0, within_term, between_term;
    for (int g = 0; g < v->t->n_groups; g++)
        renumber[g] = -1;
    for (Py_ssize_t k = 0; k < n; k++) { /* groups in order of first appearance */
        int g = v->t->group[v->tk[k]];
        if (renumber[g] < 0)
            renumber[g] = n_groups++;
        layout_group[k] = renumber[g];
    }
    if (n_groups < 2)
        return FALLBACK;
    for (int g = 0; g < n_groups; g++) {
        double sx = 0.0, sy = 0.0, acc = 0.0, count = 0.0;
        for (Py_ssize_t k = 0; k < n; k++) {
            if (layout_group[k] == g) {
                sx += v->CX[k];
                sy += v->CY[k];
                count += 1.0;
            }
        }
        gcx[g] = sx / count;
        gcy[g] = sy / count;
        for (Py_ssize_t k = 0; k < n; k++) {
            if (layout_group[k] == g)
                acc += py_dist(v->CX[k], v->CY[k], gcx[g], gcy[g]);
        }
        within += acc / count;
    }
    for (int i = 0; i < n_groups; i++) {
        for (int j = i + 1; j < n_groups; j++) {
            between += py_dist(gcx[i], gcy[i], gcx[j], gcy[j]);
            pairs++;
        }
    }
    within_term = safe_exp(v, -((within / (double)n_groups) / GROUPING_TAU_WITHIN));
    between_term = 1.0 - safe_exp(v, -((between / (double)pairs) / GROUPING_TAU_BETWEEN));
    return clamp01(within_term * between_term);
}

static double reading_order(View *v)
{
    const Task *t = v->t;
    Py_ssize_t good = 0, total = 0;
    if (!t->has_reading_pairs)
        return FALLBACK;
    for (Py_ssize_t p = 0; p < t->n_reading; p++) {
        int i = v->pos[t->reading_a[p]], j = v->pos[t->reading_b[p]], ok;
        if (i < 0 || j < 0)
            continue;
        total++;
        if (fabs(v->Y[i] - v->Y[j]) <= READING_SAME_ROW_DY)
            ok = v->X[i] <= v->X[j];
        else
            ok = v->Y[i] <= v->Y[j];
        if (ok)
            good++;
    }
    return clamp01(total ? (double)good / (double)total : FALLBACK);
}

static double aspect_ratio(View *v)
{
    const Task *t = v->t;
    double total = 0.0;
    Py_ssize_t count = 0;
    for (Py_ssize_t k = 0; k < v->n; k++) {
        int i = v->tk[k];
        if (!t->locked[i])
            continue;
        double h = v->H[k];
        double ratio = v->W[k] / (h > EPS ? h : EPS);
        if (t->canvas != 1.0)
            ratio = ratio * t->canvas;
        total += fabs(py_log(v, ratio / t->aspect[i]));
        count++;
    }
    if (!count)
        return 1.0;
    return clamp01(safe_exp(v, -(total / (double)count) / ASPECT_TAU));
}

static double occupancy(View *v)
{
    const Task *t = v->t;
    return clamp01(py_max(0.0, 1.0 - fabs(v->area - t->occ_target) / py_max(t->occ_tol, EPS)));
}

static double text_fit(View *v)
{
    const Task *t = v->t;
    double total = 0.0;
    Py_ssize_t count = 0;
    for (Py_ssize_t k = 0; k < v->n; k++) {
        int i = v->tk[k];
        if (!t->is_text[i])
            continue;
        double capacity = v->W[k] * v->H[k] * TEXT_CAPACITY_PER_AREA;
        if (capacity < EPS)
            capacity = EPS;
        total += fabs(t->content_len[i] / capacity - t->text_target);
        count++;
    }
    if (!count)
        return 1.0;
    return clamp01(safe_exp(v, -(total / (double)count) / TEXT_FIT_TAU));
}

static double negative_space(View *v)
{
    Py_ssize_t n = v->n;
    double whitespace = py_max(0.0, 1.0 - v->area), rhythm, ws_term;
    double xs[2 * MAXN], ys[2 * MAXN], x_gaps[2 * MAXN], y_gaps[2 * MAXN];
    for (Py_ssize_t k = 0; k < n; k++) {
        xs[k] = v->X[k];
        xs[n + k] = v->R[k];
        ys[k] = v->Y[k];
        ys[n + k] = v->B[k];
    }
    sort_values(xs, 2 * n);
    sort_values(ys, 2 * n);
    for (Py_ssize_t i = 0; i + 1 < 2 * n; i++) {
        x_gaps[i] = xs[i + 1] - xs[i];
        y_gaps[i] = ys[i + 1] - ys[i];
    }
    if (n > 0)
        rhythm = 1.0 - py_min(1.0, (pstd(v, x_gaps, 2 * n - 1) + pstd(v, y_gaps, 2 * n - 1))
                                       / NEG_SPACE_RHYTHM_SCALE);
    else
        rhythm = 0.5;
    ws_term = 1.0 - fabs(whitespace - (1.0 - v->t->occ_target)) / NEG_SPACE_WHITESPACE_TOL;
    return clamp01(0.6 * rhythm + 0.4 * py_max(0.0, ws_term));
}

static double intent_fit(View *v)
{
    const Task *t = v->t;
    double total = 0.0;
    Py_ssize_t count = 0;
    for (Py_ssize_t k = 0; k < v->n; k++) {
        int i = v->tk[k];
        if (!t->has_intent[i])
            continue;
        double dist = py_dist(v->CX[k], v->CY[k], t->intent_x[i], t->intent_y[i]);
        total += safe_exp(v, -(dist / t->intent_diag[i]) / INTENT_TAU);
        count++;
    }
    if (!count)
        return FALLBACK;
    return clamp01(total / (double)count);
}

/* hard_violation_of_view: the index of the violated kind (element in *where), or -1. */
static int hard_violation(View *v, Py_ssize_t *where)
{
    const Task *t = v->t;
    double lo = t->margin - EPS, hi = (1.0 - t->margin) + EPS;
    for (Py_ssize_t k = 0; k < v->n; k++) {
        int i = v->tk[k];
        double w = v->W[k], h = v->H[k];
        *where = k;
        if (w < t->min_w[i] || h < t->min_h[i])
            return 0;
        if (w > t->max_w[i] || h > t->max_h[i])
            return 1;
        if (v->X[k] < lo || v->Y[k] < lo || v->R[k] > hi || v->B[k] > hi)
            return 2;
        if (t->locked[i]) {
            double ratio = w / (h > EPS ? h : EPS);
            if (t->canvas != 1.0)
                ratio = ratio * t->canvas;
            if (fabs(py_log(v, ratio / t->aspect[i])) > HARD_ASPECT_LOG_TOL)
                return v->fail ? -1 : 3;
        }
    }
    return -1;
}

/* instruction_of_view; -1.0 (and *bad) when the targets are not as instruction_targets
   builds them. */
static double instruction(View *v, PyObject *targets, int *bad)
{
    Py_ssize_t m = PyList_GET_SIZE(targets);
    double total = 0.0;
    if (m == 0)
        return 0.0;
    for (Py_ssize_t j = 0; j < m; j++) {
        PyObject *item = PyList_GET_ITEM(targets, j), *target, *where;
        if (!PyTuple_CheckExact(item) || PyTuple_GET_SIZE(item) != 2) {
            *bad = 1;
            return -1.0;
        }
        where = PyDict_GetItemWithError(v->t->index, PyTuple_GET_ITEM(item, 0));
        if (where == NULL && PyErr_Occurred()) {
            PyErr_Clear();
            *bad = 1;
            return -1.0;
        }
        long at = where == NULL ? -1 : PyLong_AsLong(where);
        if (at >= v->t->n || (at < 0 && where != NULL)) {
            PyErr_Clear();
            *bad = 1;
            return -1.0;
        }
        int k = at < 0 ? -1 : v->pos[at];
        target = PyTuple_GET_ITEM(item, 1);
        if (k < 0 || target == Py_None) {
            total += 0.0;
            continue;
        }
        if (!PyTuple_CheckExact(target) || PyTuple_GET_SIZE(target) != 2
            || !PyFloat_CheckExact(PyTuple_GET_ITEM(target, 0))
            || !PyFloat_CheckExact(PyTuple_GET_ITEM(target, 1))) {
            *bad = 1;
            return -1.0;
        }
        double tx = PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(target, 0));
        double ty = PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(target, 1));
        double dist = py_sqrt(v, py_sq(v, v->CX[k] - tx) + py_sq(v, v->CY[k] - ty));
        total += py_exp(v, -dist / INSTRUCTION_TAU);
    }
    return clamp01(total / (double)m);
}

/* --------------------------------------------------------------------------- Python glue */

static void task_free(PyObject *capsule)
{
    Task *t = PyCapsule_GetPointer(capsule, "designrl.layout.task");
    if (t == NULL)
        return;
    Py_XDECREF(t->ids);
    Py_XDECREF(t->index);
    Py_XDECREF(t->names);
    PyMem_Free(t->reading_a);
    PyMem_Free(t->reading_b);
    PyMem_Free(t);
}

/* n doubles from a sequence (items None -> flag 0) */
static int read_doubles(PyObject *seq, Py_ssize_t n, double *out, char *present)
{
    PyObject *fast = PySequence_Fast(seq, "expected a sequence");
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "sequence of the wrong length");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        if (present != NULL)
            present[i] = item != Py_None;
        if (item == Py_None) {
            out[i] = 0.0;
            continue;
        }
        out[i] = PyFloat_AsDouble(item);
        if (out[i] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* n tuples of `width` doubles (or None) from a sequence, into columns */
static int read_rows(PyObject *seq, Py_ssize_t n, int width, double **cols, char *present)
{
    PyObject *fast = PySequence_Fast(seq, "expected a sequence");
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "sequence of the wrong length");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *row = PySequence_Fast_GET_ITEM(fast, i);
        if (present != NULL)
            present[i] = row != Py_None;
        if (row == Py_None) {
            for (int c = 0; c < width; c++)
                cols[c][i] = 0.0;
            continue;
        }
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != width) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "expected tuples of floats");
            return -1;
        }
        for (int c = 0; c < width; c++) {
            cols[c][i] = PyFloat_AsDouble(PyTuple_GET_ITEM(row, c));
            if (cols[c][i] == -1.0 && PyErr_Occurred()) {
                Py_DECREF(fast);
                return -1;
            }
        }
    }
    Py_DECREF(fast);
    return 0;
}

static int read_ints(PyObject *seq, Py_ssize_t n, int *out, long lo, long hi)
{
    PyObject *fast = PySequence_Fast(seq, "expected a sequence");
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "sequence of the wrong length");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (value < lo || value > hi) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "index out of range");
            return -1;
        }
        out[i] = (int)value;
    }
    Py_DECREF(fast);
    return 0;
}

PyDoc_STRVAR(pack_doc,
"pack(ids, index, names, importance, is_text, content_len, groups, aspect, intent,\n"
"     hard_limits, reading_items, has_reading_pairs, occ_target, occ_tol, text_target,\n"
"     margin, canvas_aspect, weights) -> capsule or None\n\n"
"A task's constants (metrics.TaskInfo's lists) packed once for evaluate. groups:\n"
"group numbers by first appearance; aspect: locked ratio or None per element;\n"
"intent: (cx, cy, diag) or None; hard_limits: (min_w, min_h, max_w, max_h) with\n"
"slack; reading_items: (a, b) task positions; weights: (metric index, weight).\n"
"None for a task this module cannot take (more than 64 elements).");

static PyObject *cm_pack(PyObject *self, PyObject *args)
{
    PyObject *ids, *index, *names, *importance, *is_text, *content_len, *groups, *aspect, *intent,
        *hard_limits, *reading, *weights;
    int has_reading_pairs;
    double occ_target, occ_tol, text_target, margin, canvas;
    if (!PyArg_ParseTuple(args, "O!O!O!OOOOOOOOpdddddO:pack", &PyTuple_Type, &ids, &PyDict_Type,
                          &index, &PyTuple_Type, &names, &importance, &is_text, &content_len,
                          &groups, &aspect, &intent, &hard_limits, &reading, &has_reading_pairs,
                          &occ_target, &occ_tol, &text_target, &margin, &canvas, &weights))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(ids);
    if (n > MAXN || PyDict_GET_SIZE(index) != n || PyTuple_GET_SIZE(names) != NMETRICS)
        Py_RETURN_NONE;
    Task *t = PyMem_Calloc(1, sizeof(Task));
    if (t == NULL)
        return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(t, "designrl.layout.task", task_free);
    if (capsule == NULL) {
        PyMem_Free(t);
        return NULL;
    }
    t->n = n;
    Py_INCREF(ids);
    t->ids = ids;
    Py_INCREF(index);
    t->index = index;
    Py_INCREF(names);
    t->names = names;
    char is_text_flags[MAXN];
    double *intent_cols[3] = {t->intent_x, t->intent_y, t->intent_diag};
    double *limit_cols[4] = {t->min_w, t->min_h, t->max_w, t->max_h};
    double text_values[MAXN];
    if (read_doubles(importance, n, t->importance, NULL) < 0
        || read_doubles(is_text, n, text_values, is_text_flags) < 0
        || read_doubles(content_len, n, t->content_len, NULL) < 0
        || read_ints(groups, n, t->group, 0, n - 1) < 0
        || read_doubles(aspect, n, t->aspect, t->locked) < 0
        || read_rows(intent, n, 3, intent_cols, t->has_intent) < 0
        || read_rows(hard_limits, n, 4, limit_cols, NULL) < 0)
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        t->is_text[i] = text_values[i] != 0.0;
        t->locked[i] = t->locked[i] && t->aspect[i] != 0.0; /* `if ar`: None or 0.0 is off */
        if (t->group[i] + 1 > t->n_groups)
            t->n_groups = t->group[i] + 1;
        /* the task order is a layout's order when it matches; ids must be distinct */
        PyObject *where = PyDict_GetItemWithError(index, PyTuple_GET_ITEM(ids, i));
        if (where == NULL || PyLong_AsSsize_t(where) != i) {
            if (PyErr_Occurred())
                goto fail;
            Py_DECREF(capsule);
            Py_RETURN_NONE;
        }
    }
    PyObject *fast = PySequence_Fast(reading, "reading_items must be a sequence");
    if (fast == NULL)
        goto fail;
    t->n_reading = PySequence_Fast_GET_SIZE(fast);
    t->reading_a = PyMem_Calloc(t->n_reading + 1, sizeof(int));
    t->reading_b = PyMem_Calloc(t->n_reading + 1, sizeof(int));
    if (t->reading_a == NULL || t->reading_b == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t p = 0; p < t->n_reading; p++) {
        int pair[2];
        if (read_ints(PySequence_Fast_GET_ITEM(fast, p), 2, pair, 0, n - 1) < 0) {
            Py_DECREF(fast);
            goto fail;
        }
        t->reading_a[p] = pair[0];
        t->reading_b[p] = pair[1];
    }
    Py_DECREF(fast);
    t->has_reading_pairs = has_reading_pairs;
    t->occ_target = occ_target;
    t->occ_tol = occ_tol;
    t->text_target = text_target;
    t->margin = margin;
    t->guides[0] = margin;
    t->guides[1] = 0.5;
    t->guides[2] = 1.0 - margin;
    t->canvas = canvas;
    fast = PySequence_Fast(weights, "weights must be a sequence");
    if (fast == NULL)
        goto fail;
    t->n_weights = PySequence_Fast_GET_SIZE(fast);
    if (t->n_weights > NMETRICS) {
        Py_DECREF(fast);
        Py_DECREF(capsule);
        Py_RETURN_NONE;
    }
    for (Py_ssize_t w = 0; w < t->n_weights; w++) {
        PyObject *row = PySequence_Fast_GET_ITEM(fast, w);
        long metric = -1;
        if (PyTuple_Check(row) && PyTuple_GET_SIZE(row) == 2) {
            metric = PyLong_AsLong(PyTuple_GET_ITEM(row, 0));
            t->weight[w] = PyFloat_AsDouble(PyTuple_GET_ITEM(row, 1));
        }
        if (PyErr_Occurred() || metric < 0 || metric >= NMETRICS) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "weights: (metric index, weight) pairs");
            Py_DECREF(fast);
            goto fail;
        }
        t->weight_metric[w] = (int)metric;
    }
    Py_DECREF(fast);
    return capsule;
fail:
    Py_DECREF(capsule);
    return NULL;
}

/* Fill the view from layout.elements; 0 on success, 1 when the Python path must take
   it (see the header), -1 on an error. */
static int load_layout(View *v, PyObject *elements)
{
    const Task *t = v->t;
    if (!PyList_Check(elements))
        return 1;
    Py_ssize_t n = PyList_GET_SIZE(elements);
    if (n > MAXN)
        return 1;
    v->n = n;
    v->fail = 0;
    double area = 0.0;
    for (Py_ssize_t i = 0; i < t->n; i++)
        v->pos[i] = -1;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *e = PyList_GET_ITEM(elements, k), *id, *bbox, *z;
        double c[4], zv;
        int ti = -1;
        id = PyObject_GetAttr(e, S_ID);
        if (id == NULL)
            return -1;
        if (k < t->n && (id == PyTuple_GET_ITEM(t->ids, k))) {
            ti = (int)k;
        }
        else {
            PyObject *where = PyDict_GetItemWithError(t->index, id);
            if (where == NULL) {
                Py_DECREF(id);
                if (PyErr_Occurred())
                    PyErr_Clear();
                return 1; /* unknown id: Python raises KeyError */
            }
            long at = PyLong_AsLong(where);
            if (at < 0 || at >= t->n) { /* index no longer the task's (mutated?) */
                Py_DECREF(id);
                PyErr_Clear();
                return 1;
            }
            ti = (int)at;
        }
        Py_DECREF(id);
        v->tk[k] = ti;
        if (v->pos[ti] < 0)
            v->pos[ti] = (int)k;

        bbox = PyObject_GetAttr(e, S_BBOX);
        if (bbox == NULL)
            return -1;
        if (!(PyList_CheckExact(bbox) || PyTuple_CheckExact(bbox)) || Py_SIZE(bbox) != 4) {
            Py_DECREF(bbox);
            return 1;
        }
        for (int j = 0; j < 4; j++) {
            PyObject *item = PySequence_Fast_GET_ITEM(bbox, j);
            if (!PyFloat_CheckExact(item)) {
                Py_DECREF(bbox);
                return 1;
            }
            c[j] = PyFloat_AS_DOUBLE(item);
            if (!(fabs(c[j]) <= BOX_LIMIT)) {
                Py_DECREF(bbox);
                return 1;
            }
        }
        Py_DECREF(bbox);

        z = PyObject_GetAttr(e, S_Z);
        if (z == NULL)
            return -1;
        if (PyFloat_CheckExact(z)) {
            zv = PyFloat_AS_DOUBLE(z);
        }
        else if (PyLong_Check(z)) {
            int overflow;
            long long zi = PyLong_AsLongLongAndOverflow(z, &overflow);
            if (overflow || (zi == -1 && PyErr_Occurred())) {
                PyErr_Clear();
                Py_DECREF(z);
                return 1;
            }
            zv = (double)zi;
        }
        else {
            Py_DECREF(z);
            return 1;
        }
        Py_DECREF(z);
        if (!(fabs(zv) <= Z_LIMIT))
            return 1;

        double x = c[0], y = c[1], w = c[2], h = c[3];
        v->X[k] = x;
        v->Y[k] = y;
        v->W[k] = w;
        v->H[k] = h;
        v->R[k] = x + w;
        v->B[k] = y + h;
        v->CX[k] = x + w / 2.0;
        v->CY[k] = y + h / 2.0;
        v->A[k] = (w > 0.0 ? w : 0.0) * (h > 0.0 ? h : 0.0);
        area += v->A[k];
        v->Z[k] = zv;
    }
    v->area = area;
    return 0;
}

PyDoc_STRVAR(evaluate_doc,
"evaluate(task_pack, elements, targets, score_invalid) -> tuple or None\n\n"
"(metrics dict in METRIC_NAMES order, utility, hard violation str or None,\n"
"instruction score) of layout.elements, as metrics.py's Python path computes them;\n"
"with score_invalid false, a layout that breaks a hard constraint gives\n"
"(None, None, violation, None). None: take the Python path for this layout.");

static PyObject *cm_evaluate(PyObject *self, PyObject *args)
{
    PyObject *capsule, *elements, *targets;
    int score_invalid;
    View v;
    Py_ssize_t where = 0;
    double m[NMETRICS], util, instr = 0.0;
    int bad = 0;

    if (!PyArg_ParseTuple(args, "OOOp:evaluate", &capsule, &elements, &targets, &score_invalid))
        return NULL;
    v.t = PyCapsule_GetPointer(capsule, "designrl.layout.task");
    if (v.t == NULL)
        return NULL;
    if (!PyList_CheckExact(targets)
        && !(PyTuple_CheckExact(targets) && PyTuple_GET_SIZE(targets) == 0))
        Py_RETURN_NONE; /* instruction_targets gives a list; () means none */
    int loaded = load_layout(&v, elements);
    if (loaded < 0)
        return NULL;
    if (loaded > 0)
        Py_RETURN_NONE;

    int kind = hard_violation(&v, &where);
    if (v.fail)
        Py_RETURN_NONE;
    PyObject *violation; /* f"{kind}:{element id}" or None */
    if (kind >= 0) {
        PyObject *id = PyObject_GetAttr(PyList_GET_ITEM(elements, where), S_ID);
        if (id == NULL)
            return NULL;
        if (!PyUnicode_CheckExact(id)) { /* Python formats other ids */
            Py_DECREF(id);
            Py_RETURN_NONE;
        }
        violation = PyUnicode_FromFormat("%s:%U", VIOLATIONS[kind], id);
        Py_DECREF(id);
        if (violation == NULL)
            return NULL;
        if (!score_invalid)
            return Py_BuildValue("(OONO)", Py_None, Py_None, violation, Py_None);
    }
    else {
        violation = Py_NewRef(Py_None);
    }

    m[0] = overlap(&v);
    m[1] = alignment(&v);
    m[2] = spacing(&v);
    m[3] = balance(&v);
    m[4] = hierarchy(&v);
    m[5] = grouping(&v);
    m[6] = reading_order(&v);
    m[7] = aspect_ratio(&v);
    m[8] = occupancy(&v);
    m[9] = text_fit(&v);
    m[10] = negative_space(&v);
    m[11] = intent_fit(&v);
    util = 0.0; /* utility(): the weighted sum in the task's weights order */
    for (Py_ssize_t w = 0; w < v.t->n_weights; w++)
        util += v.t->weight[w] * m[v.t->weight_metric[w]];
    util = clamp01(util);
    if (PyList_CheckExact(targets))
        instr = instruction(&v, targets, &bad);
    if (v.fail || bad) {
        Py_DECREF(violation);
        Py_RETURN_NONE;
    }
    PyObject *metrics = PyDict_New();
    if (metrics == NULL) {
        Py_DECREF(violation);
        return NULL;
    }
    for (int i = 0; i < NMETRICS; i++) {
        PyObject *value = PyFloat_FromDouble(m[i]);
        if (value == NULL || PyDict_SetItem(metrics, PyTuple_GET_ITEM(v.t->names, i), value) < 0) {
            Py_XDECREF(value);
            Py_DECREF(metrics);
            Py_DECREF(violation);
            return NULL;
        }
        Py_DECREF(value);
    }
    return Py_BuildValue("(NdNd)", metrics, util, violation, instr);
}

static PyMethodDef methods[] = {
    {"pack", cm_pack, METH_VARARGS, pack_doc},
    {"evaluate", cm_evaluate, METH_VARARGS, evaluate_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_cmetrics",
    .m_doc = "The layout metrics hot path of designrl.tasks.layout.metrics, in C (bit-identical).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__cmetrics(void)
{
    EXP_FLOOR = exp(MINUS_FIFTY);
    S_ID = PyUnicode_InternFromString("id");
    S_BBOX = PyUnicode_InternFromString("bbox");
    S_Z = PyUnicode_InternFromString("z");
    if (S_ID == NULL || S_BBOX == NULL || S_Z == NULL)
        return NULL;
    return PyModule_Create(&module);
}
