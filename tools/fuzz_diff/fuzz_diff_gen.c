/* fuzz-diff model generator (issue 16 item 3; docs/robustness.md, "Differential fuzzing").
 *
 *   fuzz_diff_gen gen SEED BATCH GRAPHS OUTDIR [--only J] [--skip J,K,...] [--edges] [--tiers]
 *       writes OUTDIR/model.tflite, OUTDIR/case_0/in<i>.bin and OUTDIR/outputs.txt: one
 *       .tflite holding GRAPHS independent random graphs (chains and small DAGs of
 *       operators tinyaot supports, with random shapes, dtypes and quantization that
 *       respect each operator's domain), so that one `tinyaot run` (one C compile) and one
 *       oracle call check many graphs. Graph J draws only from (SEED, BATCH, J), so
 *       `--only J` rebuilds graph J alone: the reproducer of a mismatch; --skip leaves
 *       graphs out (those the oracle refuses). Prints "graphs N", N the graphs written
 *       (fewer than GRAPHS when their inputs would pass the 64 `tinyaot run` takes).
 *       --edges draws extreme zero points (-128, 127), scales (1e-4 .. 2), output scales
 *       (0.01x .. 50x the accumulator's spread) and all-extreme input tensors more often.
 *       --tiers draws CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED 4x as often, and their
 *       tier channel counts, edge zero points and per-tensor weights more often (issue 29).
 *       outputs.txt: one line per model output, "<graph> <exact|float32> <description>".
 *       --chains: chains of 2-5 data-movement operators instead (issue 29; "chains" below).
 *   fuzz_diff_gen compare OUTDIR REF_DIR GOT_DIR
 *       compares REF_DIR/out<i>.bin with GOT_DIR/out<i>.bin as outputs.txt says (integers
 *       byte-exact; float32 equal values, NaN where the reference is NaN, or both finite and
 *       |a-b| <= 1e-5*max(1,|b|)) and prints "MISMATCH <graph> out<i> <first difference>"
 *       per differing output; exit 0 equal, 1 differing, 2 error.
 *   fuzz_diff_gen ties SEED BATCH GRAPHS OUTDIR [--family int8|int16|binary|more|dot|dot16] [--only J] [--skip J,...]
 *       one-operator graphs on rounding ties (issue 29; see cmd_ties), files as `gen`.
 *
 * Deterministic: the same arguments give the same bytes. Not part of the compiler. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fbwriter.h"

enum { T_F32 = 0, T_I32 = 2, T_I64 = 4, T_BOOL = 6, T_I16 = 7, T_I8 = 9 };
enum { MAX_T = 4096, MAX_OPS = 2048, MAX_IO = 1024, MAX_RANK = 6 };
/* `tinyaot run` reads at most 64 input files per inference. */
enum { MAX_FILE_INPUTS = 64 };
enum { ACT_NONE = 0, ACT_RELU = 1, ACT_RELU_N1 = 2, ACT_RELU6 = 3 };
enum { PAD_SAME = 0, PAD_VALID = 1 };

/* Builtin operator codes and builtin-options union types of TFLite's schema. */
enum {
  OP_ADD = 0, OP_AVG_POOL = 1, OP_CONCAT = 2, OP_CONV = 3, OP_DWCONV = 4, OP_DEQUANTIZE = 6,
  OP_FLOOR = 8, OP_FC = 9, OP_LOGISTIC = 14, OP_MAX_POOL = 17, OP_MUL = 18, OP_RELU = 19,
  OP_RELU6 = 21, OP_RESHAPE = 22, OP_SOFTMAX = 25, OP_TANH = 28, OP_PAD = 34, OP_TRANSPOSE = 39,
  OP_MEAN = 40, OP_SUB = 41, OP_STRIDED_SLICE = 45, OP_EXP = 47, OP_PRELU = 54, OP_MAXIMUM = 55,
  OP_MINIMUM = 57, OP_NEG = 59, OP_SLICE = 65, OP_SIN = 66, OP_LOG = 73, OP_SUM = 74,
  OP_SQRT = 75, OP_RSQRT = 76, OP_REDUCE_MAX = 82, OP_SQUARE = 92, OP_LEAKY_RELU = 98,
  OP_SQUARED_DIFF = 99, OP_ABS = 101, OP_CEIL = 104, OP_COS = 108, OP_QUANTIZE = 114,
  OP_ROUND = 116, OP_HARD_SWISH = 117, OP_L2_NORM = 11, OP_RESIZE_BILINEAR = 23, OP_SPACE_TO_DEPTH = 26,
  OP_DEPTH_TO_SPACE = 5, OP_DIV = 42, OP_LESS = 58, OP_GREATER = 61, OP_TRANSPOSE_CONV = 67,
  OP_RESIZE_NEAREST = 97, OP_ELU = 111, OP_SELECT_V2 = 123, OP_BATCH_MATMUL = 126,
  OP_CAST = 53, OP_ARG_MAX = 56, OP_ARG_MIN = 79, OP_GATHER = 36, OP_GATHER_ND = 107, OP_SPLIT = 49,
  OP_SPLIT_V = 102, OP_PACK = 83, OP_UNPACK = 88, OP_SQUEEZE = 43, OP_EXPAND_DIMS = 70, OP_EQUAL = 71,
  OP_NOT_EQUAL = 72, OP_LESS_EQUAL = 63, OP_GREATER_EQUAL = 62, OP_LOGICAL_OR = 84, OP_LOGICAL_AND = 86,
  OP_LOGICAL_NOT = 87, OP_MIRROR_PAD = 100, OP_PADV2 = 60, OP_LOG_SOFTMAX = 50, OP_ADD_N = 106,
  OP_CUMSUM = 128, OP_BROADCAST_TO = 130, OP_FLOOR_DIV = 90, OP_FLOOR_MOD = 95,
  OP_REVERSE_V2 = 105, OP_REDUCE_MIN = 89
};
enum {
  OT_NONE = 0, OT_CONV = 1, OT_DWCONV = 2, OT_POOL = 5, OT_FC = 8, OT_SOFTMAX = 9, OT_CONCAT = 10,
  OT_ADD = 11, OT_RESHAPE = 17, OT_MUL = 21, OT_PAD = 22, OT_TRANSPOSE = 26, OT_REDUCER = 27,
  OT_SUB = 28, OT_STRIDED_SLICE = 32, OT_MAXMIN = 39, OT_SLICE = 48, OT_LEAKY_RELU = 75,
  OT_L2_NORM = 12, OT_RESIZE_BILINEAR = 15, OT_SPACE_TO_DEPTH = 19, OT_DIV = 29, OT_LESS = 41, OT_GREATER = 44,
  OT_TRANSPOSE_CONV = 49, OT_RESIZE_NEAREST = 74, OT_DEPTH_TO_SPACE = 94, OT_SELECT_V2 = 98, OT_BATCH_MATMUL = 101,
  OT_CAST = 37, OT_ARG_MAX = 40, OT_ARG_MIN = 57, OT_GATHER = 23, OT_GATHER_ND = 83, OT_SPLIT = 35,
  OT_SPLIT_V = 79, OT_PACK = 59, OT_UNPACK = 64, OT_SQUEEZE = 30, OT_EXPAND_DIMS = 52, OT_EQUAL = 53,
  OT_NOT_EQUAL = 54, OT_LESS_EQUAL = 46, OT_GREATER_EQUAL = 45, OT_LOGICAL_OR = 60, OT_LOGICAL_AND = 62,
  OT_LOGICAL_NOT = 63, OT_MIRROR_PAD = 77, OT_PADV2 = 43, OT_LOG_SOFTMAX = 36, OT_ADD_N = 82,
  OT_CUMSUM = 102, OT_BROADCAST_TO = 104, OT_FLOOR_DIV = 65, OT_FLOOR_MOD = 72,
  OT_REVERSE_V2 = 81
};

typedef struct Rng {
  uint64_t s;
} Rng;

typedef struct Tensor {
  int type, rank;
  int32_t dims[MAX_RANK];
  bool quant;           /* per-tensor scale/zp (or per-channel when nch > 0) */
  float scale;
  int32_t zp;
  int nch, qdim;        /* per-channel: nch scales on dimension qdim, zero points 0 */
  float *ch_scales;
  void *data;           /* constant bytes (buffer) or the model input's values */
  size_t bytes;
  bool is_const, is_input;
  bool positive;        /* float values known > 0 (domain of LOG, RSQRT) */
  bool nonneg;          /* float values known >= 0 (SQRT) */
  int64_t bound;        /* int32: every value's magnitude is at most this (no overflow in MUL/ADD) */
  char name[40];
} Tensor;

typedef struct Op {
  int code, opt_type;
  FbObj *opts;
  int in[4], nin, out[4], nout;
  int graph;
} Op;

typedef struct Model {
  Tensor t[MAX_T];
  int nt;
  Op ops[MAX_OPS];
  int nops;
  int inputs[MAX_IO], nin;
  int outputs[MAX_IO], nout;
  int out_graph[MAX_IO];
  int codes[64], ncodes;
  int graph;            /* graph being generated */
  int pool[32], npool;  /* tensors of the current graph a DAG edge may reuse */
  bool edges;           /* --edges: extreme zero points, scales and values more often */
  bool tiers;           /* --tiers: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and their tier shapes more often */
} Model;

/* ---- random numbers (splitmix64) ------------------------------------------------ */

static uint64_t next_u64(Rng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static int rnd(Rng *r, int n) { return n <= 1 ? 0 : (int)(next_u64(r) % (uint64_t)n); }
static int range(Rng *r, int lo, int hi) { return lo + rnd(r, hi - lo + 1); }
static double unit(Rng *r) { return (double)(next_u64(r) >> 11) / 9007199254740992.0; }
static double uniform(Rng *r, double lo, double hi) { return lo + (hi - lo) * unit(r); }
static bool chance(Rng *r, int percent) { return rnd(r, 100) < percent; }
/* A chance drawn beside the stream (r does not advance): choices added to the generator
 * later leave every graph that does not take them byte-identical to before (the suites pin
 * seeds and graphs). */
static bool side_chance(const Rng *r, uint64_t salt, int percent) {
  Rng c = {r->s ^ salt};
  return chance(&c, percent);
}
/* Log-uniform: scales spread over decades. */
static float log_uniform(Rng *r, double lo, double hi) { return (float)exp(uniform(r, log(lo), log(hi))); }

/* ---- tensors -------------------------------------------------------------------- */

static size_t type_size(int type) {
  switch (type) {
    case T_I8:
    case T_BOOL: return 1;
    case T_I16: return 2;
    case T_I64: return 8;
    default: return 4;
  }
}

static int64_t count(const Tensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++) n *= t->dims[i];
  return n;
}

static int new_tensor(Model *m, int type, int rank, const int32_t *dims) {
  if (m->nt >= MAX_T) {
    fprintf(stderr, "fuzz_diff_gen: too many tensors\n");
    exit(2);
  }
  Tensor *t = &m->t[m->nt];
  memset(t, 0, sizeof *t);
  t->type = type;
  t->rank = rank;
  memcpy(t->dims, dims, sizeof(int32_t) * (size_t)rank);
  snprintf(t->name, sizeof t->name, "g%d_t%d", m->graph, m->nt);
  return m->nt++;
}

static void set_quant(Model *m, int ti, float scale, int32_t zp) {
  m->t[ti].quant = true;
  m->t[ti].scale = scale;
  m->t[ti].zp = zp;
}

/* A fresh activation quantization for the dtype: int16 symmetric (zero point 0). */
static void random_quant(Model *m, Rng *r, int ti) {
  int type = m->t[ti].type;
  if (type == T_I8 && m->edges && chance(r, 30))
    set_quant(m, ti, log_uniform(r, 1e-4, 2.0), chance(r, 50) ? -128 : 127);
  else if (type == T_I8) set_quant(m, ti, log_uniform(r, 0.004, 0.2), chance(r, 20) ? 0 : range(r, -128, 127));
  else if (type == T_I16) set_quant(m, ti, log_uniform(r, 3e-5, 2e-3), 0);
}

static void copy_quant(Model *m, int dst, int src) {
  m->t[dst].quant = m->t[src].quant;
  m->t[dst].scale = m->t[src].scale;
  m->t[dst].zp = m->t[src].zp;
}

/* Output tensor with the input's dtype and the given shape. */
static int like(Model *m, int src, int rank, const int32_t *dims) {
  int ti = new_tensor(m, m->t[src].type, rank, dims);
  m->t[ti].bound = m->t[src].bound;
  return ti;
}

static void *xmalloc(size_t n) {
  void *p = calloc(n ? n : 1, 1);
  if (!p) abort();
  return p;
}

static int const_tensor(Model *m, int type, int rank, const int32_t *dims, const void *data) {
  int ti = new_tensor(m, type, rank, dims);
  Tensor *t = &m->t[ti];
  t->is_const = true;
  t->bytes = (size_t)count(t) * type_size(type);
  t->data = xmalloc(t->bytes);
  memcpy(t->data, data, t->bytes);
  return ti;
}

static int const_i32_vec(Model *m, const int32_t *v, int n) {
  int32_t d[1] = {n};
  return const_tensor(m, T_I32, 1, d, v);
}

static void random_values(Model *m, Rng *r, int ti);

/* A model input of the dtype and shape, with random values over its domain. */
static int input_tensor(Model *m, Rng *r, int type, int rank, const int32_t *dims) {
  int ti = new_tensor(m, type, rank, dims);
  m->t[ti].is_input = true;
  random_values(m, r, ti);
  if (m->nin >= MAX_IO) exit(2);
  m->inputs[m->nin++] = ti;
  return ti;
}

/* A constant operand (weights-like second input of an elementwise operator). */
static int const_operand(Model *m, Rng *r, int type, int rank, const int32_t *dims) {
  int ti = new_tensor(m, type, rank, dims);
  m->t[ti].is_const = true;
  random_values(m, r, ti);
  return ti;
}

static void random_values(Model *m, Rng *r, int ti) {
  Tensor *t = &m->t[ti];
  int type = t->type;
  random_quant(m, r, ti);
  int64_t n = count(t);
  t->bytes = (size_t)n * type_size(type);
  t->data = xmalloc(t->bytes);
  /* --edges: some tensors hold only the extremes of their type (or the zero point) */
  int extreme = m->edges && (type == T_I8 || type == T_I16) && chance(r, 25) ? range(r, 1, 3) : 0;
  if (type == T_I32) t->bound = 1000;
  for (int64_t i = 0; i < n; i++) {
    if (extreme) {
      int32_t lo = type == T_I8 ? -128 : -32768, hi = type == T_I8 ? 127 : 32767;
      int32_t v = extreme == 1 ? (chance(r, 50) ? lo : hi) : extreme == 2 ? t->zp : (chance(r, 50) ? lo : t->zp);
      if (type == T_I8) ((int8_t *)t->data)[i] = (int8_t)v;
      else ((int16_t *)t->data)[i] = (int16_t)v;
    } else if (type == T_I32) ((int32_t *)t->data)[i] = range(r, -1000, 1000);
    else if (type == T_BOOL) ((uint8_t *)t->data)[i] = (uint8_t)rnd(r, 2);
    else if (type == T_I8) ((int8_t *)t->data)[i] = (int8_t)range(r, -128, 127);
    else if (type == T_I16) ((int16_t *)t->data)[i] = (int16_t)range(r, -32768, 32767);
    else ((float *)t->data)[i] = (float)uniform(r, -2.0, 2.0);
  }
}

static void add_to_pool(Model *m, int ti) {
  if (m->npool < (int)(sizeof m->pool / sizeof m->pool[0])) m->pool[m->npool++] = ti;
}

static bool same_shape(const Tensor *a, const Tensor *b) {
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

/* ---- operators ------------------------------------------------------------------ */

static int opcode_index(Model *m, int code) {
  for (int i = 0; i < m->ncodes; i++)
    if (m->codes[i] == code) return i;
  m->codes[m->ncodes] = code;
  return m->ncodes++;
}

static Op *add_op(Model *m, int code, int opt_type, FbObj *opts) {
  if (m->nops >= MAX_OPS) exit(2);
  Op *op = &m->ops[m->nops++];
  memset(op, 0, sizeof *op);
  op->code = code;
  op->opt_type = opt_type;
  op->opts = opts;
  op->graph = m->graph;
  opcode_index(m, code);
  return op;
}

static int unary_op(Model *m, int code, int opt_type, FbObj *opts, int x, int y) {
  Op *op = add_op(m, code, opt_type, opts);
  op->in[0] = x;
  op->nin = 1;
  op->out[0] = y;
  op->nout = 1;
  return y;
}

static int binary_op(Model *m, int code, int opt_type, FbObj *opts, int a, int b, int y) {
  Op *op = add_op(m, code, opt_type, opts);
  op->in[0] = a;
  op->in[1] = b;
  op->nin = 2;
  op->out[0] = y;
  op->nout = 1;
  return y;
}

static FbObj *act_opts(int act) {
  FbObj *o = fbw_table();
  fbw_u8(o, 0, (uint8_t)act);
  return o;
}

static int random_act(Rng *r) {
  static const int acts[] = {ACT_NONE, ACT_NONE, ACT_RELU, ACT_RELU6, ACT_RELU_N1};
  return acts[rnd(r, 5)];
}

/* The second operand of an elementwise operator: the same shape or a broadcast shape,
 * a new model input or (a DAG edge) an earlier tensor of this graph. */
static int second_operand(Model *m, Rng *r, int x, bool share_quant) {
  const Tensor *t = &m->t[x];
  if (chance(r, 30)) {
    for (int i = 0; i < m->npool; i++) {
      int c = m->pool[(i + rnd(r, m->npool)) % m->npool];
      if (c != x && m->t[c].type == t->type && same_shape(&m->t[c], t) &&
          (!share_quant || (m->t[c].scale == t->scale && m->t[c].zp == t->zp)))
        return c;
    }
  }
  int32_t dims[MAX_RANK];
  int rank = t->rank;
  memcpy(dims, t->dims, sizeof dims);
  if (chance(r, 35)) {
    for (int i = 0; i < rank; i++)
      if (chance(r, 50)) dims[i] = 1;
    if (chance(r, 30) && rank > 1) { /* lower rank: broadcast from the trailing dims */
      int drop = range(r, 1, rank - 1);
      memmove(dims, dims + drop, sizeof(int32_t) * (size_t)(rank - drop));
      rank -= drop;
    }
  }
  int y = chance(r, 35) ? const_operand(m, r, t->type, rank, dims) : input_tensor(m, r, t->type, rank, dims);
  if (share_quant) copy_quant(m, y, x);
  return y;
}

static int broadcast_out(Model *m, int a, int b) {
  const Tensor *ta = &m->t[a], *tb = &m->t[b];
  int rank = ta->rank > tb->rank ? ta->rank : tb->rank;
  int32_t dims[MAX_RANK];
  for (int i = 0; i < rank; i++) {
    int ia = i - (rank - ta->rank), ib = i - (rank - tb->rank);
    int da = ia >= 0 ? ta->dims[ia] : 1, db = ib >= 0 ? tb->dims[ib] : 1;
    dims[i] = da > db ? da : db;
  }
  return like(m, a, rank, dims);
}

static int gen_add_sub(Model *m, Rng *r, int x) {
  int code = chance(r, 50) ? OP_ADD : OP_SUB;
  int b = second_operand(m, r, x, false);
  int y = broadcast_out(m, x, b);
  if (m->t[x].type == T_I8) {
    float mx = m->t[x].scale > m->t[b].scale ? m->t[x].scale : m->t[b].scale;
    set_quant(m, y, mx * (float)uniform(r, 0.8, 3.0), range(r, -128, 127));
  } else if (m->t[x].type == T_I16) {
    float mx = m->t[x].scale > m->t[b].scale ? m->t[x].scale : m->t[b].scale;
    set_quant(m, y, mx * (float)uniform(r, 0.8, 3.0), 0);
  }
  return binary_op(m, code, code == OP_ADD ? OT_ADD : OT_SUB, act_opts(random_act(r)), x, b, y);
}

static int gen_mul(Model *m, Rng *r, int x) {
  int b = second_operand(m, r, x, false);
  int y = broadcast_out(m, x, b);
  if (m->t[x].type != T_F32) {
    float range_in = m->t[x].type == T_I8 ? 128.0f : 32768.0f;
    float s = m->t[x].scale * m->t[b].scale * range_in * (float)uniform(r, 0.3, 2.0);
    set_quant(m, y, s, m->t[x].type == T_I8 ? range(r, -128, 127) : 0);
  }
  return binary_op(m, OP_MUL, OT_MUL, act_opts(random_act(r)), x, b, y);
}

static int gen_squared_difference(Model *m, Rng *r, int x) {
  int b = second_operand(m, r, x, false);
  int y = broadcast_out(m, x, b);
  if (m->t[x].type != T_F32) {
    float mx = m->t[x].scale > m->t[b].scale ? m->t[x].scale : m->t[b].scale;
    float range_in = m->t[x].type == T_I8 ? 128.0f : 32768.0f;
    set_quant(m, y, mx * mx * range_in * (float)uniform(r, 0.5, 4.0), m->t[x].type == T_I8 ? -128 : 0);
  }
  return binary_op(m, OP_SQUARED_DIFF, OT_NONE, NULL, x, b, y);
}

static int gen_max_min(Model *m, Rng *r, int x) {
  int code = chance(r, 50) ? OP_MAXIMUM : OP_MINIMUM;
  int b = second_operand(m, r, x, true);
  int y = broadcast_out(m, x, b);
  copy_quant(m, y, x);
  return binary_op(m, code, OT_MAXMIN, fbw_table(), x, b, y);
}

/* Symmetric int8 weights with per-channel (or per-tensor) scales; float weights in [-1, 1]. */
static int weights(Model *m, Rng *r, int act_type, int rank, const int32_t *dims, int qdim, bool per_channel) {
  Tensor tmp = {.rank = rank};
  memcpy(tmp.dims, dims, sizeof(int32_t) * (size_t)rank);
  int64_t n = count(&tmp);
  int wtype = act_type == T_F32 ? T_F32 : T_I8;
  void *v = xmalloc((size_t)n * type_size(wtype));
  for (int64_t i = 0; i < n; i++) {
    if (wtype == T_I8) ((int8_t *)v)[i] = (int8_t)range(r, -127, 127);
    else ((float *)v)[i] = (float)uniform(r, -1.0, 1.0);
  }
  int w = const_tensor(m, wtype, rank, dims, v);
  free(v);
  if (wtype == T_I8) {
    Tensor *t = &m->t[w];
    t->quant = true;
    t->zp = 0;
    t->qdim = qdim;
    t->nch = per_channel ? dims[qdim] : 1;
    t->ch_scales = xmalloc(sizeof(float) * (size_t)t->nch);
    for (int c = 0; c < t->nch; c++) t->ch_scales[c] = log_uniform(r, 0.002, 0.05);
    t->scale = t->ch_scales[0];
  }
  return w;
}

/* Bias: float32, int32 (int8 and optionally int16x8) or int64 (int16x8), scale in * w[c]. */
static int bias(Model *m, Rng *r, int x, int w, int n, bool int64_bias) {
  const Tensor *tx = &m->t[x], *tw = &m->t[w];
  int32_t d[1] = {n};
  int type = tx->type == T_F32 ? T_F32 : int64_bias ? T_I64 : T_I32;
  void *v = xmalloc((size_t)n * type_size(type));
  for (int i = 0; i < n; i++) {
    if (type == T_F32) ((float *)v)[i] = (float)uniform(r, -1.0, 1.0);
    else if (type == T_I64) ((int64_t *)v)[i] = range(r, -200000, 200000);
    else ((int32_t *)v)[i] = range(r, -3000, 3000);
  }
  int b = const_tensor(m, type, 1, d, v);
  free(v);
  if (type != T_F32) {
    Tensor *tb = &m->t[b];
    tb->quant = true;
    tb->nch = tw->nch;
    tb->qdim = 0;
    tb->ch_scales = xmalloc(sizeof(float) * (size_t)tb->nch);
    for (int c = 0; c < tb->nch; c++) tb->ch_scales[c] = tx->scale * tw->ch_scales[c];
    tb->scale = tb->ch_scales[0];
  }
  return b;
}

/* Output scale of a dot product of depth k: about the spread of the accumulator. */
static void dot_out_quant(Model *m, Rng *r, int x, int w, int y, int k) {
  if (m->t[x].type == T_F32) return;
  /* |q_in| and |q_w| about 80 in rms: the accumulator spreads as 80 * 80 * sqrt(k) */
  float spread = m->edges ? log_uniform(r, 0.01, 50.0) : (float)uniform(r, 0.25, 2.0);
  float s = m->t[x].scale * m->t[w].ch_scales[0] * 80.0f * sqrtf((float)k) * spread;
  set_quant(m, y, s, m->t[x].type == T_I8 ? range(r, -128, 127) : 0);
}

/* ---- tier shapes (issue 29): channel counts and zero points for the DSP/MVE tiers ---- */
/* CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED also draw (beside the stream: graphs that
 * take none of it stay byte-identical) channel counts 1-17 and 20-64, which the tiers cut in
 * groups of 4, 8 or 16 with remainders, and the int8 zero points -128, 0 and 127 on their
 * output and (as the graph's first operator) on their input. */
static Rng side_rng(const Rng *r, uint64_t salt) {
  Rng c = {r->s ^ salt};
  next_u64(&c);
  return c;
}
static int tier_channels(const Rng *r, uint64_t salt) {
  static const int wide[] = {20, 24, 28, 31, 32, 33, 40, 47, 48, 64};
  Rng c = side_rng(r, salt);
  return chance(&c, 65) ? range(&c, 1, 17) : wide[rnd(&c, 10)];
}
/* The percentage of a tier-shape choice: higher under --tiers. */
static int tier_pct(const Model *m, int percent) { return m->tiers ? 2 * percent : percent; }
static int32_t edge_zero_point(const Rng *r, uint64_t salt) {
  static const int32_t zps[] = {-128, 0, 127};
  Rng c = side_rng(r, salt);
  return zps[rnd(&c, 3)];
}
/* The int8 input of the graph's first operator (no consumer yet): an edge zero point, once
 * the operator is kept (output y within pick_and_apply's size limit: an undo keeps x). */
static void tier_input_zp(Model *m, const Rng *r, int x, int y, uint64_t salt) {
  if (m->t[x].type == T_I8 && m->t[x].is_input && m->t[x].nch == 0 && count(&m->t[y]) > 0 &&
      count(&m->t[y]) <= 8192 && side_chance(r, salt, tier_pct(m, 30)))
    m->t[x].zp = edge_zero_point(r, salt + 1);
}
/* The graph's rank-4 input x read by its first operator (no consumer yet) gets, 25 % of the
 * time, a tier channel count and new values, when the operator's output (fixed elements, plus
 * per_channel for each input channel) stays within pick_and_apply's limit (an undo keeps x). */
static void tier_input_channels(Model *m, const Rng *r, int x, int64_t fixed, int64_t per_channel, uint64_t salt) {
  Tensor *t = &m->t[x];
  if (!t->is_input || t->rank != 4 || !side_chance(r, salt, tier_pct(m, 25))) return;
  int c = tier_channels(r, salt + 1);
  if (fixed + per_channel * c > 8192) return;
  t->dims[3] = c;
  free(t->data);
  Rng v = side_rng(r, salt + 2);
  random_values(m, &v, x);
}
/* An int8 output: an edge zero point, 35 % of the time. */
static void tier_output_zp(Model *m, const Rng *r, int y, uint64_t salt) {
  if (m->t[y].type == T_I8 && side_chance(r, salt, tier_pct(m, 35))) m->t[y].zp = edge_zero_point(r, salt + 1);
}

static int gen_fully_connected(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int k = t->dims[t->rank - 1];
  int64_t batch = count(t) / k;
  if (k > 128 || batch > 64) return -1;
  int units = range(r, 1, 16);
  if (side_chance(r, 0x60u, tier_pct(m, 35))) units = tier_channels(r, 0x61u);
  int32_t wd[2] = {units, k};
  bool per_channel = chance(r, 40);
  if (m->tiers && side_chance(r, 0x7au, 30)) per_channel = !per_channel; /* --tiers: both about as often */
  int w = weights(m, r, t->type, 2, wd, 0, per_channel);
  int b = chance(r, 80) ? bias(m, r, x, w, units, t->type == T_I16 && chance(r, 70)) : -1;
  int32_t yd[2] = {(int32_t)batch, units};
  int y = like(m, x, 2, yd);
  dot_out_quant(m, r, x, w, y, k);
  tier_output_zp(m, r, y, 0x64u);
  FbObj *o = fbw_table();
  fbw_u8(o, 0, (uint8_t)random_act(r));
  Op *op = add_op(m, OP_FC, OT_FC, o);
  op->in[0] = x;
  op->in[1] = w;
  op->in[2] = b;
  op->nin = 3;
  op->out[0] = y;
  op->nout = 1;
  tier_input_zp(m, r, x, y, 0x62u);
  return y;
}

static int out_extent(int in, int k, int stride, int dil, int padding) {
  int eff = (k - 1) * dil + 1;
  if (padding == PAD_SAME) return (in + stride - 1) / stride;
  return in < eff ? 0 : (in - eff) / stride + 1;
}

typedef struct Window {
  int kh, kw, sh, sw, dh, dw, padding, oh, ow;
} Window;

static bool random_window(Rng *r, const Tensor *t, int kmax, bool dilate, Window *w) {
  w->kh = range(r, 1, kmax);
  w->kw = range(r, 1, kmax);
  w->sh = range(r, 1, 2);
  w->sw = range(r, 1, 2);
  w->dh = dilate && chance(r, 20) ? 2 : 1;
  w->dw = dilate && chance(r, 20) ? 2 : 1;
  w->padding = chance(r, 50) ? PAD_SAME : PAD_VALID;
  w->oh = out_extent(t->dims[1], w->kh, w->sh, w->dh, w->padding);
  w->ow = out_extent(t->dims[2], w->kw, w->sw, w->dw, w->padding);
  return w->oh > 0 && w->ow > 0;
}

static int gen_conv(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  Window win;
  if (t->rank != 4 || !random_window(r, t, 3, true, &win)) return -1;
  int cout = range(r, 1, 8);
  if (side_chance(r, 0x66u, tier_pct(m, 35))) cout = tier_channels(r, 0x67u);
  tier_input_channels(m, r, x, (int64_t)t->dims[0] * win.oh * win.ow * cout, 0, 0x72u);
  int cin = t->dims[3];
  int32_t wd[4] = {cout, win.kh, win.kw, cin};
  bool per_channel = chance(r, 80);
  if (m->tiers && side_chance(r, 0x7bu, 40)) per_channel = false; /* --tiers: per-tensor about half the time */
  int w = weights(m, r, t->type, 4, wd, 0, per_channel);
  int b = bias(m, r, x, w, cout, t->type == T_I16 && chance(r, 80));
  int32_t yd[4] = {t->dims[0], win.oh, win.ow, cout};
  int y = like(m, x, 4, yd);
  dot_out_quant(m, r, x, w, y, win.kh * win.kw * cin);
  tier_output_zp(m, r, y, 0x6au);
  FbObj *o = fbw_table();
  fbw_u8(o, 0, (uint8_t)win.padding);
  fbw_i32(o, 1, win.sw);
  fbw_i32(o, 2, win.sh);
  fbw_u8(o, 3, (uint8_t)random_act(r));
  fbw_i32(o, 4, win.dw);
  fbw_i32(o, 5, win.dh);
  Op *op = add_op(m, OP_CONV, OT_CONV, o);
  op->in[0] = x;
  op->in[1] = w;
  op->in[2] = b;
  op->nin = 3;
  op->out[0] = y;
  op->nout = 1;
  tier_input_zp(m, r, x, y, 0x68u);
  return y;
}

static int gen_depthwise(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  Window win;
  if (t->rank != 4 || !random_window(r, t, 3, true, &win)) return -1;
  int dm = chance(r, 75) ? 1 : 2;
  tier_input_channels(m, r, x, 0, (int64_t)t->dims[0] * win.oh * win.ow * dm, 0x76u);
  int cout = t->dims[3] * dm;
  int32_t wd[4] = {1, win.kh, win.kw, cout};
  bool per_channel = chance(r, 80);
  if (m->tiers && side_chance(r, 0x7cu, 40)) per_channel = false; /* --tiers: per-tensor about half the time */
  int w = weights(m, r, t->type, 4, wd, 3, per_channel);
  int b = bias(m, r, x, w, cout, t->type == T_I16);
  int32_t yd[4] = {t->dims[0], win.oh, win.ow, cout};
  int y = like(m, x, 4, yd);
  dot_out_quant(m, r, x, w, y, win.kh * win.kw);
  tier_output_zp(m, r, y, 0x6eu);
  FbObj *o = fbw_table();
  fbw_u8(o, 0, (uint8_t)win.padding);
  fbw_i32(o, 1, win.sw);
  fbw_i32(o, 2, win.sh);
  fbw_i32(o, 3, dm);
  fbw_u8(o, 4, (uint8_t)random_act(r));
  fbw_i32(o, 5, win.dw);
  fbw_i32(o, 6, win.dh);
  Op *op = add_op(m, OP_DWCONV, OT_DWCONV, o);
  op->in[0] = x;
  op->in[1] = w;
  op->in[2] = b;
  op->nin = 3;
  op->out[0] = y;
  op->nout = 1;
  tier_input_zp(m, r, x, y, 0x6cu);
  return y;
}

static int gen_pool(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  Window win;
  if (t->rank != 4 || !random_window(r, t, 3, false, &win)) return -1;
  int code = chance(r, 50) ? OP_AVG_POOL : OP_MAX_POOL;
  int32_t yd[4] = {t->dims[0], win.oh, win.ow, t->dims[3]};
  int y = like(m, x, 4, yd);
  copy_quant(m, y, x);
  FbObj *o = fbw_table();
  fbw_u8(o, 0, (uint8_t)win.padding);
  fbw_i32(o, 1, win.sw);
  fbw_i32(o, 2, win.sh);
  fbw_i32(o, 3, win.kw);
  fbw_i32(o, 4, win.kh);
  fbw_u8(o, 5, (uint8_t)(chance(r, 70) ? ACT_NONE : random_act(r)));
  return unary_op(m, code, OT_POOL, o, x, y);
}

static int same_shape_out(Model *m, int x) { return like(m, x, m->t[x].rank, m->t[x].dims); }

static int gen_relu(Model *m, Rng *r, int x) {
  int code = chance(r, 50) ? OP_RELU : OP_RELU6;
  int y = same_shape_out(m, x);
  if (code == OP_RELU6 || chance(r, 50)) copy_quant(m, y, x);
  else random_quant(m, r, y);
  m->t[y].nonneg = true;
  return unary_op(m, code, OT_NONE, NULL, x, y);
}

static int gen_logistic_tanh(Model *m, Rng *r, int x) {
  int code = chance(r, 50) ? OP_LOGISTIC : OP_TANH;
  int type = m->t[x].type;
  if (type == T_I16 && m->t[x].scale > 2.0f) return -1; /* the int16 tables take scales up to 8/3 */
  int y = same_shape_out(m, x);
  if (type == T_I8) set_quant(m, y, code == OP_LOGISTIC ? 1.0f / 256 : 1.0f / 128, code == OP_LOGISTIC ? -128 : 0);
  if (type == T_I16) set_quant(m, y, 1.0f / 32768, 0);
  m->t[y].nonneg = m->t[y].positive = code == OP_LOGISTIC;
  return unary_op(m, code, OT_NONE, NULL, x, y);
}

static int gen_leaky_relu(Model *m, Rng *r, int x) {
  int y = same_shape_out(m, x);
  random_quant(m, r, y);
  FbObj *o = fbw_table();
  fbw_f32(o, 0, (float)uniform(r, 0.01, 0.9));
  return unary_op(m, OP_LEAKY_RELU, OT_LEAKY_RELU, o, x, y);
}

static int gen_hard_swish(Model *m, Rng *r, int x) {
  if (m->t[x].type == T_I16) return -1;
  int y = same_shape_out(m, x);
  if (m->t[x].type == T_I8) set_quant(m, y, m->t[x].scale * (float)uniform(r, 0.5, 2.0), range(r, -128, 0));
  return unary_op(m, OP_HARD_SWISH, OT_NONE, NULL, x, y);
}

static int gen_softmax(Model *m, Rng *r, int x) {
  int y = same_shape_out(m, x);
  if (m->t[x].type == T_I8) set_quant(m, y, 1.0f / 256, -128);
  if (m->t[x].type == T_I16) set_quant(m, y, 1.0f / 32768, 0);
  FbObj *o = fbw_table();
  fbw_f32(o, 0, chance(r, 50) ? 1.0f : (float)uniform(r, 0.3, 2.0));
  m->t[y].nonneg = true;
  return unary_op(m, OP_SOFTMAX, OT_SOFTMAX, o, x, y);
}

static int gen_reshape(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int64_t n = count(t);
  int32_t dims[MAX_RANK];
  int rank;
  if (chance(r, 40) || n > 4096) {
    rank = 2;
    dims[0] = 1;
    dims[1] = (int32_t)n;
  } else { /* split n into up to 4 factors */
    rank = 0;
    int64_t left = n;
    while (rank < 3) {
      int f = range(r, 1, 4);
      while (f > 1 && left % f) f--;
      dims[rank++] = f;
      left /= f;
    }
    dims[rank++] = (int32_t)left;
  }
  int y = like(m, x, rank, dims);
  copy_quant(m, y, x);
  int shape = const_i32_vec(m, dims, rank);
  FbObj *o = fbw_table();
  fbw_obj(o, 0, fbw_i32_vec(dims, (size_t)rank));
  return binary_op(m, OP_RESHAPE, OT_RESHAPE, o, x, shape, y);
}

static int gen_concat(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int axis = rnd(r, t->rank);
  if (chance(r, 40)) /* the outermost axis that is not 1: the inputs may become views */
    for (axis = 0; axis < t->rank - 1 && t->dims[axis] == 1;) axis++;
  int32_t dims[MAX_RANK];
  memcpy(dims, t->dims, sizeof dims);
  dims[axis] = range(r, 1, 4);
  int b = input_tensor(m, r, t->type, t->rank, dims);
  copy_quant(m, b, x);
  if ((t->type == T_I8 || t->type == T_F32) && chance(r, 50)) {
    /* a computed second input, which the compiler may write straight into its slice of
     * the output (src/transform/concat_views.c) */
    int c = same_shape_out(m, b);
    copy_quant(m, c, b);
    m->t[c].nonneg = true;
    b = unary_op(m, OP_RELU, OT_NONE, NULL, b, c);
  }
  dims[axis] += t->dims[axis];
  int y = like(m, x, t->rank, dims);
  copy_quant(m, y, x);
  FbObj *o = fbw_table();
  fbw_i32(o, 0, chance(r, 30) ? axis - t->rank : axis);
  bool first = chance(r, 50);
  return binary_op(m, OP_CONCAT, OT_CONCAT, o, first ? x : b, first ? b : x, y);
}

static int gen_reduce(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  static const int codes[] = {OP_MEAN, OP_MEAN, OP_SUM, OP_REDUCE_MAX, OP_REDUCE_MIN};
  int code = codes[rnd(r, 5)];
  if ((code == OP_REDUCE_MAX || code == OP_REDUCE_MIN) && t->type == T_I16) code = OP_MEAN;
  int32_t axes[MAX_RANK], n = 0;
  if (t->rank == 4 && chance(r, 40)) { /* the spatial mean of a CNN head */
    axes[n++] = 1;
    axes[n++] = 2;
  } else {
    for (int i = 0; i < t->rank; i++)
      if (chance(r, 40)) axes[n++] = i;
    if (n == 0) axes[n++] = rnd(r, t->rank);
  }
  bool keep = chance(r, 50);
  int32_t dims[MAX_RANK];
  int rank = 0;
  for (int i = 0; i < t->rank; i++) {
    bool reduced = false;
    for (int j = 0; j < n; j++) reduced |= axes[j] == i;
    if (!reduced) dims[rank++] = t->dims[i];
    else if (keep) dims[rank++] = 1;
  }
  if (rank == 0) {
    if (!keep) return -1; /* scalar outputs: keep the graph simple */
  }
  int64_t reduced_count = count(t);
  for (int i = 0; i < rank; i++) reduced_count /= dims[i];
  int y = like(m, x, rank, dims);
  if (code == OP_REDUCE_MAX || code == OP_REDUCE_MIN) copy_quant(m, y, x);
  else if (code == OP_SUM && t->type != T_F32) {
    random_quant(m, r, y);
    m->t[y].scale = m->t[x].scale * sqrtf((float)reduced_count) * (float)uniform(r, 0.5, 3.0);
  } else random_quant(m, r, y);
  if (code == OP_MEAN && t->type != T_F32 && chance(r, 30)) copy_quant(m, y, x);
  int ax = const_i32_vec(m, axes, n);
  FbObj *o = fbw_table();
  fbw_u8(o, 0, keep);
  return binary_op(m, code, OT_REDUCER, o, x, ax, y);
}

static int gen_pad(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int32_t pads[2 * MAX_RANK], dims[MAX_RANK];
  for (int i = 0; i < t->rank; i++) {
    pads[2 * i] = chance(r, 50) ? range(r, 0, 2) : 0;
    pads[2 * i + 1] = chance(r, 50) ? range(r, 0, 2) : 0;
    dims[i] = t->dims[i] + pads[2 * i] + pads[2 * i + 1];
  }
  int y = like(m, x, t->rank, dims);
  copy_quant(m, y, x);
  int32_t pd[2] = {t->rank, 2};
  int p = const_tensor(m, T_I32, 2, pd, pads);
  return binary_op(m, OP_PAD, OT_PAD, fbw_table(), x, p, y);
}

static int gen_transpose(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->rank < 2) return -1;
  int32_t perm[MAX_RANK], dims[MAX_RANK];
  for (int i = 0; i < t->rank; i++) perm[i] = i;
  for (int i = t->rank - 1; i > 0; i--) {
    int j = rnd(r, i + 1), tmp = perm[i];
    perm[i] = perm[j];
    perm[j] = tmp;
  }
  for (int i = 0; i < t->rank; i++) dims[i] = t->dims[perm[i]];
  int y = like(m, x, t->rank, dims);
  copy_quant(m, y, x);
  int p = const_i32_vec(m, perm, t->rank);
  return binary_op(m, OP_TRANSPOSE, OT_TRANSPOSE, fbw_table(), x, p, y);
}

/* The outermost axis of t that is not 1 (the last when all are): a split there cuts the
 * input into contiguous byte ranges, which the compiler may read in place as views
 * (src/transform/slice_views.c). */
static int outer_axis(const Tensor *t) {
  int axis = 0;
  while (axis < t->rank - 1 && t->dims[axis] == 1) axis++;
  return axis;
}

/* y = SLICE(x, begin, size), or with `end` STRIDED_SLICE(x, begin, end, strides): the
 * operator and its index tensors (begin first, as the model lists them). */
static int slice_op(Model *m, int x, int y, const int32_t *begin, const int32_t *size, const int32_t *end,
                    const int32_t *strides) {
  const int rank = m->t[x].rank;
  int b = const_i32_vec(m, begin, rank);
  if (!end) {
    int s = const_i32_vec(m, size, rank);
    Op *op = add_op(m, OP_SLICE, OT_SLICE, fbw_table());
    op->in[0] = x, op->in[1] = b, op->in[2] = s, op->nin = 3, op->out[0] = y, op->nout = 1;
    return y;
  }
  int e = const_i32_vec(m, end, rank), s = const_i32_vec(m, strides, rank);
  Op *op = add_op(m, OP_STRIDED_SLICE, OT_STRIDED_SLICE, fbw_table());
  op->in[0] = x, op->in[1] = b, op->in[2] = e, op->in[3] = s, op->nin = 4, op->out[0] = y, op->nout = 1;
  return y;
}

static int gen_slice(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->rank > 5) return -1;
  int32_t begin[MAX_RANK], size[MAX_RANK], dims[MAX_RANK];
  const bool contiguous = side_chance(r, 0x51u, 30); /* one byte range of x: a view (slice_views.c) */
  const int outer = outer_axis(t);
  for (int i = 0; i < t->rank; i++) {
    begin[i] = rnd(r, t->dims[i]);
    size[i] = range(r, 1, t->dims[i] - begin[i]);
    if (contiguous && i > outer) begin[i] = 0, size[i] = t->dims[i];
    dims[i] = size[i];
  }
  bool strided = t->rank <= 4 && chance(r, 50); /* TFLite Micro's STRIDED_SLICE: rank 4 at most */
  int32_t strides[MAX_RANK], end[MAX_RANK];
  if (strided)
    for (int i = 0; i < t->rank; i++) {
      strides[i] = range(r, 1, 2);
      if (contiguous) strides[i] = 1;
      end[i] = begin[i] + size[i];
      dims[i] = (size[i] + strides[i] - 1) / strides[i];
    }
  else if (chance(r, 30)) { /* size -1: to the end */
    int a = rnd(r, t->rank);
    size[a] = -1;
    dims[a] = t->dims[a] - begin[a];
  }
  int y = like(m, x, t->rank, dims);
  copy_quant(m, y, x);
  return slice_op(m, x, y, begin, size, strided ? end : NULL, strides);
}

static int gen_prelu(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int32_t dims[MAX_RANK];
  int rank = t->rank;
  memcpy(dims, t->dims, sizeof dims);
  for (int i = 0; i < rank - 1; i++) dims[i] = 1; /* per-channel alpha, as Keras writes it */
  int type = t->type == T_F32 ? T_F32 : T_I8;
  Tensor tmp = {.rank = rank};
  memcpy(tmp.dims, dims, sizeof dims);
  int64_t n = count(&tmp);
  void *v = xmalloc((size_t)n * type_size(type));
  for (int64_t i = 0; i < n; i++) {
    if (type == T_I8) ((int8_t *)v)[i] = (int8_t)range(r, -128, 127);
    else ((float *)v)[i] = (float)uniform(r, -0.5, 0.5);
  }
  int a = const_tensor(m, type, rank, dims, v);
  free(v);
  if (type == T_I8) set_quant(m, a, log_uniform(r, 0.001, 0.01), range(r, -20, 20));
  int y = same_shape_out(m, x);
  random_quant(m, r, y);
  return binary_op(m, OP_PRELU, OT_NONE, NULL, x, a, y);
}

/* Requantize within the integer domain, or cross it (float <-> int8/int16). */
static int gen_quantize(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int to;
  if (t->type == T_F32) to = chance(r, 70) ? T_I8 : T_I16;
  else if (chance(r, 35)) {
    int y = new_tensor(m, T_F32, t->rank, t->dims);
    return unary_op(m, OP_DEQUANTIZE, OT_NONE, NULL, x, y);
  } else if (t->type == T_I8) to = chance(r, 60) ? T_I8 : T_I16;
  else to = chance(r, 50) ? T_I8 : T_I16;
  int y = new_tensor(m, to, t->rank, t->dims);
  random_quant(m, r, y);
  if (t->type != T_F32) { /* keep the rescale factor in a sane range */
    float lo = t->scale * (to == T_I8 ? 1.0f / 64 : 1.0f / 32768 * 4), hi = t->scale * (to == T_I8 ? 4.0f : 1.0f);
    if (to == T_I16 && t->type == T_I8) lo = t->scale / 512, hi = t->scale / 64;
    if (to == T_I8 && t->type == T_I16) lo = t->scale * 64, hi = t->scale * 512;
    m->t[y].scale = log_uniform(r, lo, hi);
  }
  return unary_op(m, OP_QUANTIZE, OT_NONE, NULL, x, y);
}

static int gen_abs(Model *m, Rng *r, int x) {
  int y = same_shape_out(m, x);
  if (m->t[x].type == T_I8) random_quant(m, r, y);
  if (m->t[x].type == T_I16) copy_quant(m, y, x);
  m->t[y].nonneg = true;
  return unary_op(m, OP_ABS, OT_NONE, NULL, x, y);
}

/* float32-only elementwise functions, each on its domain. */
static int gen_float_unary(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->type != T_F32) return -1;
  static const int codes[] = {OP_NEG, OP_EXP, OP_FLOOR, OP_CEIL, OP_ROUND, OP_SIN, OP_COS,
                              OP_SQUARE, OP_SQRT, OP_LOG, OP_RSQRT};
  int code = codes[rnd(r, (int)(sizeof codes / sizeof codes[0]))];
  if ((code == OP_SQRT && !t->nonneg) || ((code == OP_LOG || code == OP_RSQRT) && !t->positive)) return -1;
  int y = same_shape_out(m, x);
  m->t[y].nonneg = code == OP_EXP || code == OP_SQUARE || code == OP_SQRT || code == OP_RSQRT;
  m->t[y].positive = code == OP_EXP || code == OP_RSQRT;
  return unary_op(m, code, OT_NONE, NULL, x, y);
}

static int gen_transpose_conv(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->rank != 4 || t->type == T_F32) return -1;
  int kh = range(r, 1, 3), kw = range(r, 1, 3), sh = range(r, 1, 2), sw = range(r, 1, 2);
  int padding = chance(r, 50) ? PAD_SAME : PAD_VALID, cin = t->dims[3], cout = range(r, 1, 6);
  int32_t yd[4] = {t->dims[0], 0, 0, cout};
  yd[1] = padding == PAD_SAME ? t->dims[1] * sh : (t->dims[1] - 1) * sh + kh;
  yd[2] = padding == PAD_SAME ? t->dims[2] * sw : (t->dims[2] - 1) * sw + kw;
  int shape = const_i32_vec(m, yd, 4);
  int32_t wd[4] = {cout, kh, kw, cin};
  int w = weights(m, r, t->type, 4, wd, 0, chance(r, 80));
  int b = chance(r, 80) ? bias(m, r, x, w, cout, t->type == T_I16) : -1;
  int y = like(m, x, 4, yd);
  dot_out_quant(m, r, x, w, y, kh * kw * cin / (sh * sw) + 1);
  FbObj *o = fbw_table();
  fbw_u8(o, 0, (uint8_t)padding);
  fbw_i32(o, 1, sw);
  fbw_i32(o, 2, sh);
  Op *op = add_op(m, OP_TRANSPOSE_CONV, OT_TRANSPOSE_CONV, o);
  op->in[0] = shape, op->in[1] = w, op->in[2] = x, op->in[3] = b, op->nin = 4, op->out[0] = y, op->nout = 1;
  return y;
}

/* x [.., M, K] times a constant or input [K, N] (float32, int8 with symmetric rhs). */
static int gen_batch_matmul(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->rank < 2 || t->rank > 4 || t->type == T_I16) return -1;
  int k = t->dims[t->rank - 1], n = range(r, 1, 12);
  if (k > 64) return -1;
  int32_t wd[2] = {k, n};
  int w = chance(r, 50) ? const_operand(m, r, t->type, 2, wd) : input_tensor(m, r, t->type, 2, wd);
  if (t->type == T_I8) m->t[w].zp = 0;
  int32_t yd[MAX_RANK];
  memcpy(yd, t->dims, sizeof yd);
  yd[t->rank - 1] = n;
  int y = like(m, x, t->rank, yd);
  if (t->type == T_I8)
    set_quant(m, y, m->t[x].scale * m->t[w].scale * 80.0f * sqrtf((float)k) * (float)uniform(r, 0.25, 2.0),
              range(r, -128, 127));
  FbObj *o = fbw_table();
  return binary_op(m, OP_BATCH_MATMUL, OT_BATCH_MATMUL, o, x, w, y);
}

static int gen_resize(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->rank != 4) return -1;
  bool bilinear = t->type == T_I8 && chance(r, 50);
  int32_t size[2] = {range(r, 1, 12), range(r, 1, 12)};
  int s = const_i32_vec(m, size, 2);
  int32_t yd[4] = {t->dims[0], size[0], size[1], t->dims[3]};
  int y = like(m, x, 4, yd);
  copy_quant(m, y, x);
  FbObj *o = fbw_table();
  bool align = chance(r, 30), half = !align && chance(r, 50);
  fbw_u8(o, bilinear ? 2 : 0, align);
  fbw_u8(o, bilinear ? 3 : 1, half);
  return binary_op(m, bilinear ? OP_RESIZE_BILINEAR : OP_RESIZE_NEAREST, bilinear ? OT_RESIZE_BILINEAR : OT_RESIZE_NEAREST,
                   o, x, s, y);
}

static int gen_space_depth(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->rank != 4 || t->type == T_I16) return -1; /* TFLite Micro: float32 and int8 only */
  int bs = 2;
  int32_t yd[4] = {t->dims[0], t->dims[1], t->dims[2], t->dims[3]};
  int code;
  if (t->dims[1] % bs == 0 && t->dims[2] % bs == 0 && chance(r, 60)) {
    code = OP_SPACE_TO_DEPTH;
    yd[1] /= bs, yd[2] /= bs, yd[3] *= bs * bs;
  } else if (t->dims[3] % (bs * bs) == 0) {
    code = OP_DEPTH_TO_SPACE;
    yd[1] *= bs, yd[2] *= bs, yd[3] /= bs * bs;
  } else {
    return -1;
  }
  int y = like(m, x, 4, yd);
  copy_quant(m, y, x);
  FbObj *o = fbw_table();
  fbw_i32(o, 0, bs);
  return unary_op(m, code, code == OP_SPACE_TO_DEPTH ? OT_SPACE_TO_DEPTH : OT_DEPTH_TO_SPACE, o, x, y);
}

static int gen_l2_norm_elu(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->type == T_I16) return -1;
  int y = same_shape_out(m, x);
  if (chance(r, 50)) {
    if (t->rank > 4) return -1;
    if (t->type == T_I8) set_quant(m, y, 1.0f / 128, 0);
    return unary_op(m, OP_L2_NORM, OT_L2_NORM, act_opts(ACT_NONE), x, y);
  }
  if (t->type == T_I8) random_quant(m, r, y);
  return unary_op(m, OP_ELU, OT_NONE, NULL, x, y);
}

/* LESS / GREATER against a second operand, then SELECT_V2 between x and another operand. */
static int gen_compare_select(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->type == T_I16) return -1;
  int b = second_operand(m, r, x, false);
  int c = new_tensor(m, T_BOOL, m->t[x].rank, m->t[x].dims);
  int code = chance(r, 50) ? OP_LESS : OP_GREATER;
  if (!same_shape(&m->t[x], &m->t[b])) {
    m->nt--; /* keep the select simple: compare same shapes */
    return -1;
  }
  if (t->type == T_I8 && (m->t[x].scale >= 1.0f || m->t[b].scale >= 1.0f))
    return -1; /* TFLite Micro rescales int8 comparison inputs by factors below 1 */
  binary_op(m, code, code == OP_LESS ? OT_LESS : OT_GREATER, fbw_table(), x, b, c);
  int other = second_operand(m, r, x, true);
  int y = broadcast_out(m, x, other);
  copy_quant(m, y, x);
  Op *op = add_op(m, OP_SELECT_V2, OT_SELECT_V2, fbw_table());
  op->in[0] = c, op->in[1] = x, op->in[2] = other, op->nin = 3, op->out[0] = y, op->nout = 1;
  return y;
}

/* float32 DIV by a divisor bounded away from 0 (|d| in [0.25, 2]). */
static int gen_div(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->type != T_F32) return -1;
  int d = chance(r, 50) ? const_operand(m, r, T_F32, t->rank, t->dims) : input_tensor(m, r, T_F32, t->rank, t->dims);
  float *v = m->t[d].data;
  for (int64_t i = 0; i < count(&m->t[d]); i++) v[i] = (v[i] < 0 ? -0.25f : 0.25f) + v[i] * 0.875f;
  int y = same_shape_out(m, x);
  return binary_op(m, OP_DIV, OT_DIV, act_opts(random_act(r)), x, d, y);
}

/* ---- integer, boolean and data-movement operators (the ops-new families) ---------- */

static void mark_output(Model *m, int ti);

/* A one-element int32 constant (axis operands). */
static int const_i32_scalar(Model *m, int32_t v) { return const_i32_vec(m, &v, 1); }

/* CAST between the integer, float and bool types TFLite Micro converts; quantization is
 * ignored by the operator (raw values), so an int8/int16 result gets a fresh one for the
 * operators that follow. */
static int gen_cast(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int to;
  switch (t->type) {
    case T_I8: { static const int c[] = {T_I32, T_I16, T_F32}; to = c[rnd(r, 3)]; break; }
    case T_I16: to = chance(r, 50) ? T_I32 : T_F32; break;
    case T_F32: { static const int c[] = {T_I32, T_I8, T_I16}; to = c[rnd(r, 3)]; break; }
    case T_I32: { static const int c[] = {T_F32, T_I8, T_I16}; to = c[rnd(r, 3)]; break; }
    case T_BOOL: to = chance(r, 50) ? T_I32 : T_F32; break;
    default: return -1;
  }
  int y = new_tensor(m, to, t->rank, t->dims);
  if (to == T_I8 || to == T_I16) random_quant(m, r, y);
  if (to == T_I32)
    m->t[y].bound = t->type == T_I8 ? 128 : t->type == T_I16 ? 32768 : t->type == T_F32 ? 2 : 1;
  if (to == T_F32) m->t[y].nonneg = t->type == T_BOOL;
  FbObj *o = fbw_table();
  fbw_u8(o, 0, (uint8_t)t->type);
  fbw_u8(o, 1, (uint8_t)to);
  return unary_op(m, OP_CAST, OT_CAST, o, x, y);
}

/* int32 ADD, SUB, MUL, MAXIMUM, MINIMUM (broadcasting), kept clear of overflow. */
static int gen_int32_arith(Model *m, Rng *r, int x) {
  static const int codes[] = {OP_ADD, OP_SUB, OP_MUL, OP_MAXIMUM, OP_MINIMUM};
  int code = codes[rnd(r, 5)];
  int b = second_operand(m, r, x, false);
  if (m->t[b].type != T_I32) return -1;
  int64_t ba = m->t[x].bound, bb = m->t[b].bound;
  if (code == OP_MUL && chance(r, 70)) { /* small factors keep chains of products in range */
    int32_t *v = m->t[b].data;
    if (m->t[b].is_input || m->t[b].is_const)
      for (int64_t i = 0; i < count(&m->t[b]); i++) v[i] = v[i] % 8;
    bb = m->t[b].is_input || m->t[b].is_const ? 7 : bb;
  }
  int64_t bound = code == OP_MUL ? ba * bb : code == OP_ADD || code == OP_SUB ? ba + bb : (ba > bb ? ba : bb);
  if (bound > (1 << 30)) return -1;
  int y = broadcast_out(m, x, b);
  m->t[y].bound = bound;
  int ot = code == OP_ADD ? OT_ADD : code == OP_SUB ? OT_SUB : code == OP_MUL ? OT_MUL : OT_MAXMIN;
  return binary_op(m, code, ot, code == OP_MAXIMUM || code == OP_MINIMUM ? fbw_table() : act_opts(ACT_NONE), x, b, y);
}

/* float32 FLOOR_DIV / FLOOR_MOD by a divisor bounded away from 0. */
static int gen_floor_divmod(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int d = chance(r, 50) ? const_operand(m, r, T_F32, t->rank, t->dims) : input_tensor(m, r, T_F32, t->rank, t->dims);
  float *v = m->t[d].data;
  for (int64_t i = 0; i < count(&m->t[d]); i++) v[i] = (v[i] < 0 ? -0.25f : 0.25f) + v[i] * 0.875f;
  int y = same_shape_out(m, x);
  bool div = chance(r, 50);
  return binary_op(m, div ? OP_FLOOR_DIV : OP_FLOOR_MOD, div ? OT_FLOOR_DIV : OT_FLOOR_MOD, fbw_table(), x, d, y);
}

static int comparison(Model *m, Rng *r, int x, int b) {
  static const int codes[] = {OP_LESS, OP_GREATER, OP_EQUAL, OP_NOT_EQUAL, OP_LESS_EQUAL, OP_GREATER_EQUAL};
  static const int types[] = {OT_LESS, OT_GREATER, OT_EQUAL, OT_NOT_EQUAL, OT_LESS_EQUAL, OT_GREATER_EQUAL};
  int k = rnd(r, 6);
  int c = broadcast_out(m, x, b);
  m->t[c].type = T_BOOL;
  m->t[c].quant = false;
  return binary_op(m, codes[k], types[k], fbw_table(), x, b, c);
}

/* Any comparison (broadcasting), optionally combined with a second one by LOGICAL_AND/OR or
 * negated, then turned back into numbers by CAST or SELECT, or left as a bool tensor. */
static int gen_compare_logic(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int b = second_operand(m, r, x, false);
  if (t->type == T_I8 && (t->scale >= 1.0f || m->t[b].scale >= 1.0f))
    return -1; /* TFLite Micro rescales int8 comparison inputs by factors below 1 */
  int c = comparison(m, r, x, b);
  if (chance(r, 35)) {
    int b2 = second_operand(m, r, x, false);
    if (t->type == T_I8 && m->t[b2].scale >= 1.0f) return -1;
    int c2 = comparison(m, r, x, b2);
    if (!same_shape(&m->t[c], &m->t[c2])) return -1;
    bool both = chance(r, 50);
    int y = new_tensor(m, T_BOOL, m->t[c].rank, m->t[c].dims);
    c = binary_op(m, both ? OP_LOGICAL_AND : OP_LOGICAL_OR, both ? OT_LOGICAL_AND : OT_LOGICAL_OR, fbw_table(), c, c2, y);
  }
  if (chance(r, 20)) {
    int y = new_tensor(m, T_BOOL, m->t[c].rank, m->t[c].dims);
    c = unary_op(m, OP_LOGICAL_NOT, OT_LOGICAL_NOT, fbw_table(), c, y);
  }
  if ((t->type == T_F32 || t->type == T_I8) && same_shape(&m->t[c], t) && chance(r, 60)) {
    int other = second_operand(m, r, x, true);
    int y = broadcast_out(m, x, other);
    copy_quant(m, y, x);
    Op *op = add_op(m, OP_SELECT_V2, OT_SELECT_V2, fbw_table()); /* TFLite Micro has no SELECT (v1) */
    op->in[0] = c, op->in[1] = x, op->in[2] = other, op->nin = 3, op->out[0] = y, op->nout = 1;
    return y;
  }
  return c;
}

static int gen_logical_not(Model *m, Rng *r, int x) {
  (void)r;
  int y = same_shape_out(m, x);
  return unary_op(m, OP_LOGICAL_NOT, OT_LOGICAL_NOT, fbw_table(), x, y);
}

/* ARG_MAX / ARG_MIN along one axis, int32 indices out (ties: the first index). */
static int gen_arg_minmax(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->rank < 2) return -1;
  int axis = rnd(r, t->rank);
  int32_t dims[MAX_RANK];
  int rank = 0;
  for (int i = 0; i < t->rank; i++)
    if (i != axis) dims[rank++] = t->dims[i];
  int a = const_i32_scalar(m, chance(r, 30) ? axis - t->rank : axis);
  int y = new_tensor(m, T_I32, rank, dims);
  m->t[y].bound = t->dims[axis];
  bool max = chance(r, 50);
  FbObj *o = fbw_table();
  fbw_u8(o, 0, T_I32);
  return binary_op(m, max ? OP_ARG_MAX : OP_ARG_MIN, max ? OT_ARG_MAX : OT_ARG_MIN, o, x, a, y);
}

/* int32 indices in [0, limit): a constant, or a model input holding valid values. */
static int index_tensor(Model *m, Rng *r, int rank, const int32_t *dims, const int32_t *limits, int nlimits) {
  int ti = chance(r, 75) ? const_operand(m, r, T_I32, rank, dims) : input_tensor(m, r, T_I32, rank, dims);
  int32_t *v = m->t[ti].data;
  for (int64_t i = 0; i < count(&m->t[ti]); i++) v[i] = rnd(r, limits[i % nlimits]);
  return ti;
}

static int gen_gather(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int axis = rnd(r, t->rank);
  int32_t idims[2] = {range(r, 1, 4), range(r, 1, 3)};
  int irank = chance(r, 70) ? 1 : 2;
  if (t->rank - 1 + irank > 5) return -1;
  int32_t lim = t->dims[axis];
  int idx = index_tensor(m, r, irank, idims, &lim, 1);
  int32_t dims[MAX_RANK];
  int rank = 0;
  for (int i = 0; i < axis; i++) dims[rank++] = t->dims[i];
  for (int i = 0; i < irank; i++) dims[rank++] = idims[i];
  for (int i = axis + 1; i < t->rank; i++) dims[rank++] = t->dims[i];
  int y = like(m, x, rank, dims);
  copy_quant(m, y, x);
  FbObj *o = fbw_table();
  fbw_i32(o, 0, chance(r, 30) ? axis - t->rank : axis);
  return binary_op(m, OP_GATHER, OT_GATHER, o, x, idx, y);
}

static int gen_gather_nd(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int k = range(r, 1, t->rank);
  int32_t idims[2] = {range(r, 1, 4), k};
  int idx = index_tensor(m, r, 2, idims, t->dims, k);
  int32_t dims[MAX_RANK];
  int rank = 0;
  dims[rank++] = idims[0];
  for (int i = k; i < t->rank; i++) dims[rank++] = t->dims[i];
  int y = like(m, x, rank, dims);
  copy_quant(m, y, x);
  return binary_op(m, OP_GATHER_ND, OT_GATHER_ND, fbw_table(), x, idx, y);
}

/* A part left over by SPLIT / UNPACK becomes a graph output, half the time (int8, float32)
 * through a RELU: a computed reader, so the part itself is an intermediate tensor the
 * compiler may turn into a view of the input. */
static void part_output(Model *m, Rng *r, int part) {
  const int type = m->t[part].type;
  if ((type == T_I8 || type == T_F32) && side_chance(r, 0x52u + (uint64_t)part, 50)) {
    int c = same_shape_out(m, part);
    copy_quant(m, c, part);
    m->t[c].nonneg = true;
    part = unary_op(m, OP_RELU, OT_NONE, NULL, part, c);
  }
  mark_output(m, part);
}

/* SPLIT / SPLIT_V: the chain goes on from one part; the others become graph outputs. */
static int gen_split(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int axis = rnd(r, t->rank), n = range(r, 2, 4), d;
  if (side_chance(r, 0x53u, 40)) axis = outer_axis(t);
  d = t->dims[axis];
  bool v = chance(r, 50);
  int32_t sizes[4];
  if (!v) {
    if (d % n) return -1;
    for (int i = 0; i < n; i++) sizes[i] = d / n;
  } else {
    if (d < n) n = d;
    if (n < 2) return -1;
    int left = d;
    for (int i = 0; i < n - 1; i++) {
      sizes[i] = range(r, 1, left - (n - 1 - i));
      left -= sizes[i];
    }
    sizes[n - 1] = left;
  }
  int outs[4];
  for (int i = 0; i < n; i++) {
    int32_t dims[MAX_RANK];
    memcpy(dims, t->dims, sizeof dims);
    dims[axis] = sizes[i];
    outs[i] = like(m, x, t->rank, dims);
    copy_quant(m, outs[i], x);
  }
  int a = const_i32_scalar(m, chance(r, 30) ? axis - t->rank : axis);
  FbObj *o = fbw_table();
  fbw_i32(o, 0, n);
  Op *op;
  if (v) {
    int32_t spec[4];
    memcpy(spec, sizes, sizeof spec);
    if (chance(r, 30)) spec[rnd(r, n)] = -1; /* "the rest" */
    int s = const_i32_vec(m, spec, n);
    op = add_op(m, OP_SPLIT_V, OT_SPLIT_V, o);
    op->in[0] = x, op->in[1] = s, op->in[2] = a, op->nin = 3;
  } else {
    op = add_op(m, OP_SPLIT, OT_SPLIT, o);
    op->in[0] = a, op->in[1] = x, op->nin = 2;
  }
  for (int i = 0; i < n; i++) op->out[i] = outs[i];
  op->nout = n;
  int keep = rnd(r, n);
  for (int i = 0; i < n; i++)
    if (i != keep) part_output(m, r, outs[i]);
  return outs[keep];
}

static int gen_pack(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->rank > 4) return -1;
  int n = range(r, 2, 3), axis = rnd(r, t->rank + 1);
  Op *op = add_op(m, OP_PACK, OT_PACK, NULL);
  int pos = rnd(r, n);
  for (int i = 0; i < n; i++) {
    int in = x;
    if (i != pos) {
      in = input_tensor(m, r, t->type, t->rank, t->dims);
      copy_quant(m, in, x);
      if (t->type == T_I32) m->t[in].bound = 1000;
    }
    op->in[i] = in;
  }
  op->nin = n;
  int32_t dims[MAX_RANK];
  int rank = 0;
  for (int i = 0; i <= t->rank; i++) {
    if (i == axis) dims[rank++] = n;
    if (i < t->rank) dims[rank++] = t->dims[i];
  }
  int y = like(m, x, rank, dims);
  copy_quant(m, y, x);
  if (t->type == T_I32) m->t[y].bound = t->bound > 1000 ? t->bound : 1000;
  FbObj *o = fbw_table();
  fbw_i32(o, 0, n);
  fbw_i32(o, 1, chance(r, 30) ? axis - (t->rank + 1) : axis);
  op->opts = o;
  op->out[0] = y, op->nout = 1;
  return y;
}

static int gen_unpack(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->rank < 2) return -1;
  int axis = rnd(r, t->rank), n;
  if (side_chance(r, 0x54u, 40)) axis = outer_axis(t);
  n = t->dims[axis];
  if (n > 4) return -1;
  int32_t dims[MAX_RANK];
  int rank = 0;
  for (int i = 0; i < t->rank; i++)
    if (i != axis) dims[rank++] = t->dims[i];
  FbObj *o = fbw_table();
  fbw_i32(o, 0, n);
  fbw_i32(o, 1, chance(r, 30) ? axis - t->rank : axis);
  Op *op = add_op(m, OP_UNPACK, OT_UNPACK, o);
  op->in[0] = x, op->nin = 1;
  for (int i = 0; i < n; i++) {
    op->out[i] = like(m, x, rank, dims);
    copy_quant(m, op->out[i], x);
    m->t[op->out[i]].bound = t->bound;
  }
  op->nout = n;
  int keep = rnd(r, n);
  for (int i = 0; i < n; i++)
    if (i != keep) part_output(m, r, op->out[i]);
  return op->out[keep];
}

static int gen_squeeze_expand(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int32_t dims[MAX_RANK], drop[MAX_RANK];
  int rank = 0, ndrop = 0;
  bool has_one = false;
  for (int i = 0; i < t->rank; i++) has_one |= t->dims[i] == 1;
  if (!has_one || chance(r, 50)) {
    if (t->rank >= 5) return -1;
    int axis = rnd(r, t->rank + 1);
    for (int i = 0; i <= t->rank; i++) {
      if (i == axis) dims[rank++] = 1;
      if (i < t->rank) dims[rank++] = t->dims[i];
    }
    int a = const_i32_scalar(m, chance(r, 30) ? axis - (t->rank + 1) : axis);
    int y = like(m, x, rank, dims);
    copy_quant(m, y, x);
    return binary_op(m, OP_EXPAND_DIMS, OT_EXPAND_DIMS, fbw_table(), x, a, y);
  }
  bool all = chance(r, 40);
  for (int i = 0; i < t->rank; i++) {
    if (t->dims[i] == 1 && (all || chance(r, 60))) drop[ndrop++] = i;
    else dims[rank++] = t->dims[i];
  }
  if (ndrop == 0 || rank == 0) return -1;
  int y = like(m, x, rank, dims);
  copy_quant(m, y, x);
  FbObj *o = fbw_table();
  if (!all) fbw_obj(o, 0, fbw_i32_vec(drop, (size_t)ndrop));
  return unary_op(m, OP_SQUEEZE, OT_SQUEEZE, o, x, y);
}

static int gen_mirror_pad(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->rank > 4) return -1;
  bool symmetric = chance(r, 50);
  int32_t pads[2 * MAX_RANK], dims[MAX_RANK];
  for (int i = 0; i < t->rank; i++) {
    int most = symmetric ? t->dims[i] : t->dims[i] - 1;
    if (most > 2) most = 2;
    pads[2 * i] = chance(r, 60) ? range(r, 0, most) : 0;
    pads[2 * i + 1] = chance(r, 60) ? range(r, 0, most) : 0;
    dims[i] = t->dims[i] + pads[2 * i] + pads[2 * i + 1];
  }
  int y = like(m, x, t->rank, dims);
  copy_quant(m, y, x);
  int32_t pd[2] = {t->rank, 2};
  int p = const_tensor(m, T_I32, 2, pd, pads);
  FbObj *o = fbw_table();
  fbw_u8(o, 0, symmetric);
  return binary_op(m, OP_MIRROR_PAD, OT_MIRROR_PAD, o, x, p, y);
}

/* PADV2 with a constant value of the input's type and quantization. */
static int gen_padv2(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->rank > 4) return -1;
  int32_t pads[2 * MAX_RANK], dims[MAX_RANK];
  for (int i = 0; i < t->rank; i++) {
    pads[2 * i] = chance(r, 50) ? range(r, 0, 2) : 0;
    pads[2 * i + 1] = chance(r, 50) ? range(r, 0, 2) : 0;
    dims[i] = t->dims[i] + pads[2 * i] + pads[2 * i + 1];
  }
  int32_t pd[2] = {t->rank, 2}, one[1] = {1};
  int p = const_tensor(m, T_I32, 2, pd, pads);
  int v = const_operand(m, r, t->type, 1, one);
  copy_quant(m, v, x);
  int y = like(m, x, t->rank, dims);
  copy_quant(m, y, x);
  m->t[y].bound = t->bound > 1000 ? t->bound : 1000;
  Op *op = add_op(m, OP_PADV2, OT_PADV2, fbw_table());
  op->in[0] = x, op->in[1] = p, op->in[2] = v, op->nin = 3, op->out[0] = y, op->nout = 1;
  return y;
}

static int gen_log_softmax(Model *m, Rng *r, int x) {
  (void)r;
  int y = same_shape_out(m, x);
  if (m->t[x].type == T_I8) set_quant(m, y, 16.0f / 256, 127);
  return unary_op(m, OP_LOG_SOFTMAX, OT_LOG_SOFTMAX, fbw_table(), x, y);
}

/* ADD_N of 2-4 same-shape operands (int8: one shared input quantization). */
static int gen_add_n(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int n = range(r, 2, 4);
  Op *op = add_op(m, OP_ADD_N, OT_ADD_N, fbw_table());
  int pos = rnd(r, n);
  for (int i = 0; i < n; i++) {
    int in = x;
    if (i != pos) {
      in = chance(r, 30) ? const_operand(m, r, t->type, t->rank, t->dims) : input_tensor(m, r, t->type, t->rank, t->dims);
      copy_quant(m, in, x);
    }
    op->in[i] = in;
  }
  op->nin = n;
  int y = same_shape_out(m, x);
  if (t->type == T_I8) set_quant(m, y, t->scale * (float)n * (float)uniform(r, 0.5, 1.5), range(r, -128, 127));
  op->out[0] = y, op->nout = 1;
  return y;
}

static int gen_cumsum(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int axis = rnd(r, t->rank);
  int a = const_i32_scalar(m, axis);
  int y = same_shape_out(m, x);
  if (t->type == T_I8)
    set_quant(m, y, t->scale * sqrtf((float)t->dims[axis]) * (float)uniform(r, 0.5, 3.0), range(r, -128, 127));
  FbObj *o = fbw_table();
  fbw_u8(o, 0, chance(r, 40));
  fbw_u8(o, 1, chance(r, 40));
  return binary_op(m, OP_CUMSUM, OT_CUMSUM, o, x, a, y);
}

static int gen_broadcast_to(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int lead = t->rank >= 5 ? 0 : rnd(r, 5 - t->rank > 2 ? 3 : 5 - t->rank + 1);
  int32_t dims[MAX_RANK];
  int rank = 0;
  for (int i = 0; i < lead; i++) dims[rank++] = range(r, 1, 3);
  for (int i = 0; i < t->rank; i++) dims[rank++] = t->dims[i] == 1 && chance(r, 70) ? range(r, 2, 5) : t->dims[i];
  int s = const_i32_vec(m, dims, rank);
  int y = like(m, x, rank, dims);
  copy_quant(m, y, x);
  m->t[y].bound = t->bound;
  return binary_op(m, OP_BROADCAST_TO, OT_BROADCAST_TO, fbw_table(), x, s, y);
}

static int gen_reverse(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  int32_t axes[2] = {rnd(r, t->rank), 0};
  int n = 1;
  if (axes[0] + 1 < t->rank && chance(r, 30)) { /* TFLite Micro reverses contiguous axes only */
    axes[1] = axes[0] + 1;
    n = 2;
  }
  int a = const_i32_vec(m, axes, n);
  int y = same_shape_out(m, x);
  copy_quant(m, y, x);
  m->t[y].bound = t->bound;
  return binary_op(m, OP_REVERSE_V2, OT_REVERSE_V2, fbw_table(), x, a, y);
}

typedef int (*GenFn)(Model *m, Rng *r, int x);
typedef struct Gen {
  const char *name;
  GenFn fn;
  int weight;
  unsigned types; /* dtypes of x the generator draws on */
} Gen;

#define TM(t) (1u << (t))
enum { QF = TM(T_I8) | TM(T_I16) | TM(T_F32), I8F = TM(T_I8) | TM(T_F32), ALLT = QF | TM(T_I32) | TM(T_BOOL) };

static const Gen GENS[] = {
    {"add_sub", gen_add_sub, 10, QF},     {"mul", gen_mul, 6, QF},          {"sqdiff", gen_squared_difference, 2, QF},
    {"maxmin", gen_max_min, 3, QF},       {"fc", gen_fully_connected, 8, QF}, {"conv", gen_conv, 10, QF},
    {"dwconv", gen_depthwise, 8, QF},     {"pool", gen_pool, 6, QF},        {"relu", gen_relu, 4, QF},
    {"logistic_tanh", gen_logistic_tanh, 4, QF}, {"leaky_relu", gen_leaky_relu, 3, QF}, {"hard_swish", gen_hard_swish, 2, QF},
    {"softmax", gen_softmax, 4, QF},      {"reshape", gen_reshape, 4, QF},  {"concat", gen_concat, 4, QF},
    {"reduce", gen_reduce, 4, QF},        {"pad", gen_pad, 3, QF},          {"transpose", gen_transpose, 3, QF},
    {"slice", gen_slice, 3, QF},          {"prelu", gen_prelu, 2, QF},      {"quantize", gen_quantize, 5, QF},
    {"abs", gen_abs, 2, QF},              {"float_unary", gen_float_unary, 6, QF},
    {"transpose_conv", gen_transpose_conv, 4, QF}, {"batch_matmul", gen_batch_matmul, 3, QF}, {"resize", gen_resize, 3, QF},
    {"space_depth", gen_space_depth, 2, QF}, {"l2_norm_elu", gen_l2_norm_elu, 2, QF}, {"compare_select", gen_compare_select, 2, QF},
    {"div", gen_div, 2, QF},
    /* the ops-new families: integer and bool tensors, data movement */
    {"cast", gen_cast, 3, ALLT},          {"int32_arith", gen_int32_arith, 8, TM(T_I32)},
    {"floor_divmod", gen_floor_divmod, 2, TM(T_F32)}, {"compare_logic", gen_compare_logic, 4, I8F | TM(T_I32)},
    {"logical_not", gen_logical_not, 3, TM(T_BOOL)}, {"arg_minmax", gen_arg_minmax, 2, I8F},
    {"gather", gen_gather, 2, I8F},       {"gather_nd", gen_gather_nd, 2, I8F},
    {"split", gen_split, 3, QF | TM(T_I32)}, {"pack", gen_pack, 2, QF | TM(T_I32)},
    {"unpack", gen_unpack, 2, QF | TM(T_I32)}, {"squeeze_expand", gen_squeeze_expand, 2, QF},
    {"mirror_pad", gen_mirror_pad, 2, I8F}, {"padv2", gen_padv2, 2, QF | TM(T_I32)},
    {"log_softmax", gen_log_softmax, 2, I8F}, {"add_n", gen_add_n, 2, I8F}, {"cumsum", gen_cumsum, 2, I8F},
    {"broadcast_to", gen_broadcast_to, 2, ALLT}, {"reverse", gen_reverse, 2, ALLT},
};

/* --tiers: CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED drawn 4x as often (issue 29). */
static int gen_weight(const Model *m, int i) {
  const GenFn fn = GENS[i].fn;
  const bool tier = fn == gen_conv || fn == gen_depthwise || fn == gen_fully_connected;
  return m->tiers && tier ? 4 * GENS[i].weight : GENS[i].weight;
}

static int pick_and_apply(Model *m, Rng *r, int x) {
  int total = 0, n = (int)(sizeof GENS / sizeof GENS[0]);
  for (int i = 0; i < n; i++) total += gen_weight(m, i);
  for (int attempt = 0; attempt < 30; attempt++) {
    int p = rnd(r, total), i = 0;
    while (p >= gen_weight(m, i)) p -= gen_weight(m, i++);
    if (!(GENS[i].types & (1u << m->t[x].type))) continue;
    int saved_nt = m->nt, saved_nops = m->nops, saved_nin = m->nin, saved_ncodes = m->ncodes, saved_nout = m->nout;
    int y = GENS[i].fn(m, r, x);
    if (y >= 0 && count(&m->t[y]) > 0 && count(&m->t[y]) <= 8192) return y;
    m->nt = saved_nt, m->nops = saved_nops, m->nin = saved_nin, m->ncodes = saved_ncodes; /* undo */
    m->nout = saved_nout;
  }
  return -1;
}

static void mark_output(Model *m, int ti) {
  for (int i = 0; i < m->nout; i++)
    if (m->outputs[i] == ti) return;
  if (m->nout >= MAX_IO) exit(2);
  m->out_graph[m->nout] = m->graph;
  m->outputs[m->nout++] = ti;
}

static void gen_graph(Model *m, Rng *r) {
  static const int types[] = {T_I8, T_I8, T_I8, T_I8, T_I16, T_I16, T_F32, T_F32, T_F32, T_I32, T_BOOL};
  int type = types[rnd(r, 11)];
  int32_t dims[MAX_RANK];
  int rank;
  if (chance(r, 65)) {
    rank = 4;
    dims[0] = chance(r, 85) ? 1 : 2;
    dims[1] = range(r, 1, 9);
    dims[2] = range(r, 1, 9);
    dims[3] = range(r, 1, 8);
  } else {
    rank = range(r, 1, 3);
    for (int i = 0; i < rank; i++) dims[i] = range(r, 1, 12);
  }
  m->npool = 0;
  int x = input_tensor(m, r, type, rank, dims);
  add_to_pool(m, x);
  int n = range(r, 1, 5);
  for (int i = 0; i < n; i++) {
    int y = pick_and_apply(m, r, x);
    if (y < 0) break;
    if (i < n - 1 && chance(r, 10)) mark_output(m, y); /* an intermediate read by later ops too */
    add_to_pool(m, y);
    x = y;
  }
  if (m->t[x].is_input) { /* the graph must compute something */
    if (m->t[x].type == T_I32) x = gen_reverse(m, r, x);
    else if (m->t[x].type == T_BOOL) x = gen_logical_not(m, r, x);
    else x = gen_relu(m, r, x);
  }
  mark_output(m, x);
}

/* ---- chains: data-movement chains under the graph rewrites (issue 29) ------------ */
/* `gen ... --chains`: each graph is a chain of 2-5 data-movement operators over one random
 * dtype (int8, int16, int32, float32, bool where TensorFlow Lite Micro takes it), so that
 * every rewrite meets every such operator: slice views (SPLIT/SLICE/... outputs read in
 * place), concatenation views, PAD folding (a PAD before a CONV_2D), quantize elision (an
 * identity QUANTIZE), RESHAPE aliasing and in-place execution. The chain starts from a model
 * input or from the output of a compute operator (a view needs a producer, not only an
 * input), intermediate tensors are sometimes model outputs too (an alias or view reached
 * by an output), and it ends in a model output or a compute reader. */

/* QUANTIZE to the same scale and zero point (int8, int16): elide_quantize shares it. */
static int chain_identity_quantize(Model *m, Rng *r, int x) {
  (void)r;
  const int type = m->t[x].type;
  if (type != T_I8 && type != T_I16) return -1;
  int y = same_shape_out(m, x);
  copy_quant(m, y, x);
  return unary_op(m, OP_QUANTIZE, OT_NONE, NULL, x, y);
}

/* A compute operator of x's dtype (the producer or reader of a chain). */
static int chain_compute(Model *m, Rng *r, int x) {
  const int type = m->t[x].type;
  if (type == T_BOOL) return gen_logical_not(m, r, x);
  if (type == T_I32) {
    int y = gen_int32_arith(m, r, x);
    return y >= 0 ? y : gen_reverse(m, r, x);
  }
  int y = same_shape_out(m, x); /* RELU: the same quantization, a byte-level reader */
  copy_quant(m, y, x);
  m->t[y].nonneg = true;
  return unary_op(m, OP_RELU, OT_NONE, NULL, x, y);
}

/* SLICE / STRIDED_SLICE (stride 1) of one range of the outermost axis that is not 1, the
 * rest whole: one contiguous byte range of x, a view (slice_views.c). */
static int chain_outer_slice(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->rank > 4) return -1;
  const int outer = outer_axis(t);
  int32_t begin[MAX_RANK], size[MAX_RANK], end[MAX_RANK], strides[MAX_RANK];
  for (int i = 0; i < t->rank; i++) begin[i] = 0, size[i] = t->dims[i], strides[i] = 1;
  begin[outer] = rnd(r, t->dims[outer]);
  size[outer] = range(r, 1, t->dims[outer] - begin[outer]);
  for (int i = 0; i < t->rank; i++) end[i] = begin[i] + size[i];
  int y = like(m, x, t->rank, size);
  copy_quant(m, y, x);
  return slice_op(m, x, y, begin, size, chance(r, 50) ? NULL : end, strides);
}

/* PAD or PADV2 of height and width only, filling the zero point, then a CONV_2D: the pad
 * may fold into the convolution (fold_pad.c; int8 and int16, not float32). */
static int chain_pad_conv(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  if (t->rank != 4 || t->type == T_I32 || t->type == T_BOOL) return -1;
  int32_t pads[8] = {0}, dims[4];
  for (int i = 1; i <= 2; i++) pads[2 * i] = range(r, 0, 2), pads[2 * i + 1] = range(r, 0, 2);
  for (int i = 0; i < 4; i++) dims[i] = t->dims[i] + pads[2 * i] + pads[2 * i + 1];
  int32_t pd[2] = {4, 2}, one[1] = {1};
  int p = const_tensor(m, T_I32, 2, pd, pads);
  int y = like(m, x, 4, dims);
  copy_quant(m, y, x);
  if (chance(r, 50)) {
    binary_op(m, OP_PAD, OT_PAD, fbw_table(), x, p, y);
  } else {
    int v = const_operand(m, r, t->type, 1, one);
    copy_quant(m, v, x);
    if (t->type == T_I8) ((int8_t *)m->t[v].data)[0] = (int8_t)m->t[x].zp;
    else if (t->type == T_I16) ((int16_t *)m->t[v].data)[0] = 0;
    else ((float *)m->t[v].data)[0] = 0.0f;
    Op *op = add_op(m, OP_PADV2, OT_PADV2, fbw_table());
    op->in[0] = x, op->in[1] = p, op->in[2] = v, op->nin = 3, op->out[0] = y, op->nout = 1;
  }
  /* a VALID convolution (the fold's case), kernel wider than each padding */
  const Tensor *pt = &m->t[y];
  int kh = range(r, 2, 3), kw = range(r, 2, 3), sh = range(r, 1, 2), sw = range(r, 1, 2);
  if (pads[2] >= kh || pads[3] >= kh || pads[4] >= kw || pads[5] >= kw) kh = kw = 3;
  int oh = out_extent(pt->dims[1], kh, sh, 1, PAD_VALID), ow = out_extent(pt->dims[2], kw, sw, 1, PAD_VALID);
  if (oh <= 0 || ow <= 0) return -1;
  int cin = pt->dims[3], cout = range(r, 1, 6);
  int32_t wd[4] = {cout, kh, kw, cin};
  int w = weights(m, r, pt->type, 4, wd, 0, chance(r, 80));
  int b = bias(m, r, y, w, cout, pt->type == T_I16 && chance(r, 80));
  int32_t yd[4] = {pt->dims[0], oh, ow, cout};
  int z = like(m, y, 4, yd);
  dot_out_quant(m, r, y, w, z, kh * kw * cin);
  FbObj *o = fbw_table();
  fbw_u8(o, 0, (uint8_t)PAD_VALID);
  fbw_i32(o, 1, sw);
  fbw_i32(o, 2, sh);
  fbw_u8(o, 3, (uint8_t)ACT_NONE);
  fbw_i32(o, 4, 1);
  fbw_i32(o, 5, 1);
  Op *op = add_op(m, OP_CONV, OT_CONV, o);
  op->in[0] = y, op->in[1] = w, op->in[2] = b, op->nin = 3, op->out[0] = z, op->nout = 1;
  return z;
}

/* CONCATENATION along the outermost axis that is not 1 of x and 1-2 computed tensors: its
 * inputs may be written straight into their slices (concat_views.c). */
static int chain_outer_concat(Model *m, Rng *r, int x) {
  const Tensor *t = &m->t[x];
  const int axis = outer_axis(t), n = range(r, 2, 3), pos = rnd(r, n);
  int in[3];
  int32_t dims[MAX_RANK];
  memcpy(dims, t->dims, sizeof dims);
  int32_t total = 0;
  for (int i = 0; i < n; i++) {
    if (i == pos) {
      in[i] = x;
      total += t->dims[axis];
      continue;
    }
    int32_t d[MAX_RANK];
    memcpy(d, m->t[x].dims, sizeof d);
    d[axis] = range(r, 1, 3);
    total += d[axis];
    int b = input_tensor(m, r, m->t[x].type, m->t[x].rank, d);
    copy_quant(m, b, x);
    if (m->t[x].type == T_I32) m->t[b].bound = 1000;
    in[i] = chance(r, 80) ? chain_compute(m, r, b) : b;
    if (in[i] < 0) return -1;
    copy_quant(m, in[i], x);
  }
  dims[axis] = total;
  int y = like(m, x, m->t[x].rank, dims);
  copy_quant(m, y, x);
  if (m->t[x].type == T_I32) m->t[y].bound = 1 << 20;
  FbObj *o = fbw_table();
  fbw_i32(o, 0, chance(r, 30) ? axis - m->t[x].rank : axis);
  Op *op = add_op(m, OP_CONCAT, OT_CONCAT, o);
  for (int i = 0; i < n; i++) op->in[i] = in[i];
  op->nin = n, op->out[0] = y, op->nout = 1;
  return y;
}

/* dtypes: what TensorFlow Lite Micro's kernels take (EXPAND_DIMS and TRANSPOSE no int32
 * or bool, GATHER int8 and float32 only) */
#define BM TM(T_BOOL)
#define IM TM(T_I32)
static const Gen CHAIN_GENS[] = {
    {"reshape", gen_reshape, 6, ALLT},       {"squeeze_expand", gen_squeeze_expand, 5, QF},
    {"concat", gen_concat, 6, QF | IM | BM}, {"pad", gen_pad, 5, QF | IM},
    {"padv2", gen_padv2, 5, QF | IM},        {"mirror_pad", gen_mirror_pad, 3, I8F},
    {"transpose", gen_transpose, 4, QF}, {"slice", gen_slice, 8, QF | IM | BM},
    {"split", gen_split, 7, QF | IM},        {"unpack", gen_unpack, 4, QF | IM},
    {"pack", gen_pack, 4, QF | IM},          {"gather", gen_gather, 3, I8F},
    {"reverse", gen_reverse, 3, ALLT},       {"broadcast_to", gen_broadcast_to, 3, ALLT},
    {"space_depth", gen_space_depth, 2, I8F}, {"identity_quantize", chain_identity_quantize, 6, TM(T_I8) | TM(T_I16)},
    {"outer_slice", chain_outer_slice, 8, QF | IM | BM}, {"outer_concat", chain_outer_concat, 6, QF | IM | BM}, {"pad_conv", chain_pad_conv, 4, QF},
};
#undef BM
#undef IM

static int chain_apply(Model *m, Rng *r, int x) {
  const int n = (int)(sizeof CHAIN_GENS / sizeof CHAIN_GENS[0]);
  int total = 0;
  for (int i = 0; i < n; i++) total += CHAIN_GENS[i].weight;
  for (int attempt = 0; attempt < 40; attempt++) {
    int p = rnd(r, total), i = 0;
    while (p >= CHAIN_GENS[i].weight) p -= CHAIN_GENS[i++].weight;
    if (!(CHAIN_GENS[i].types & (1u << m->t[x].type))) continue;
    int saved_nt = m->nt, saved_nops = m->nops, saved_nin = m->nin, saved_ncodes = m->ncodes, saved_nout = m->nout;
    int y = CHAIN_GENS[i].fn(m, r, x);
    if (y >= 0 && count(&m->t[y]) > 0 && count(&m->t[y]) <= 4096 && m->t[y].rank <= 5) return y;
    m->nt = saved_nt, m->nops = saved_nops, m->nin = saved_nin, m->ncodes = saved_ncodes, m->nout = saved_nout;
  }
  return -1;
}

static void gen_chain(Model *m, Rng *r) {
  static const int types[] = {T_I8, T_I8, T_I8, T_I16, T_I16, T_I32, T_F32, T_F32, T_BOOL};
  const int type = types[rnd(r, 9)];
  int32_t dims[MAX_RANK];
  int rank;
  if (chance(r, 60)) {
    rank = 4;
    dims[0] = chance(r, 70) ? 1 : 2;
    dims[1] = range(r, 1, 8);
    dims[2] = range(r, 1, 8);
    dims[3] = range(r, 1, 8);
  } else {
    rank = range(r, 1, 3);
    for (int i = 0; i < rank; i++) dims[i] = range(r, 1, 10);
  }
  m->npool = 0;
  int x = input_tensor(m, r, type, rank, dims);
  if (type == T_I32) m->t[x].bound = 1000;
  if (chance(r, 60)) x = chain_compute(m, r, x); /* a produced chain input */
  const int n = range(r, 2, 5);
  for (int i = 0; i < n; i++) {
    int y = chain_apply(m, r, x);
    if (y < 0) break;
    if (i < n - 1 && chance(r, 20)) mark_output(m, y); /* read by the chain and the caller */
    x = y;
  }
  const int t = m->t[x].type;
  if (m->t[x].rank == 4 && (t == T_I8 || t == T_F32 || t == T_I16) && chance(r, 30)) {
    int y = gen_conv(m, r, x); /* a PAD before it may fold into it */
    if (y >= 0) x = y;
  } else if (m->t[x].is_input || chance(r, 30)) {
    x = chain_compute(m, r, x);
  }
  mark_output(m, x);
}
/* ---- end of chains ---------------------------------------------------------------- */

/* ---- serialization -------------------------------------------------------------- */

static FbObj *tensor_obj(const Tensor *t, uint32_t buffer) {
  FbObj *o = fbw_table();
  fbw_obj(o, 0, fbw_i32_vec(t->dims, (size_t)t->rank));
  fbw_u8(o, 1, (uint8_t)t->type);
  fbw_u32(o, 2, buffer);
  fbw_obj(o, 3, fbw_string(t->name));
  if (t->quant) {
    int n = t->nch > 0 ? t->nch : 1;
    float *sc = xmalloc(sizeof(float) * (size_t)n);
    int64_t *zp = xmalloc(sizeof(int64_t) * (size_t)n);
    for (int i = 0; i < n; i++) {
      sc[i] = t->nch > 0 ? t->ch_scales[i] : t->scale;
      zp[i] = t->nch > 0 ? 0 : t->zp;
    }
    FbObj *q = fbw_table();
    fbw_obj(q, 2, fbw_f32_vec(sc, (size_t)n));
    fbw_obj(q, 3, fbw_i64_vec(zp, (size_t)n));
    if (t->nch > 0) fbw_i32(q, 6, t->qdim);
    fbw_obj(o, 4, q);
    free(sc);
    free(zp);
  }
  return o;
}

static size_t serialize(Model *m, uint8_t **bytes) {
  FbObj **tensors = xmalloc(sizeof(FbObj *) * (size_t)m->nt);
  FbObj **buffers = xmalloc(sizeof(FbObj *) * (size_t)(m->nt + 1));
  int nbuf = 0;
  buffers[nbuf++] = fbw_table(); /* buffer 0: empty, by convention */
  for (int i = 0; i < m->nt; i++) {
    uint32_t b = 0;
    if (m->t[i].is_const) {
      FbObj *buf = fbw_table();
      fbw_obj(buf, 0, fbw_bytes(m->t[i].data, m->t[i].bytes, 16));
      b = (uint32_t)nbuf;
      buffers[nbuf++] = buf;
    }
    tensors[i] = tensor_obj(&m->t[i], b);
  }
  FbObj **ops = xmalloc(sizeof(FbObj *) * (size_t)(m->nops ? m->nops : 1));
  for (int i = 0; i < m->nops; i++) {
    const Op *op = &m->ops[i];
    FbObj *o = fbw_table();
    fbw_u32(o, 0, (uint32_t)opcode_index(m, op->code));
    fbw_obj(o, 1, fbw_i32_vec(op->in, (size_t)op->nin));
    fbw_obj(o, 2, fbw_i32_vec(op->out, (size_t)op->nout));
    if (op->opt_type != OT_NONE && op->opts) {
      fbw_u8(o, 3, (uint8_t)op->opt_type);
      fbw_obj(o, 4, op->opts);
    }
    ops[i] = o;
  }
  FbObj *codes[64];
  for (int i = 0; i < m->ncodes; i++) {
    codes[i] = fbw_table();
    fbw_u8(codes[i], 0, (uint8_t)(m->codes[i] < 127 ? m->codes[i] : 127));
    fbw_i32(codes[i], 2, 1);
    fbw_i32(codes[i], 3, m->codes[i]);
  }
  FbObj *sg = fbw_table();
  fbw_obj(sg, 0, fbw_obj_vec(tensors, (size_t)m->nt));
  fbw_obj(sg, 1, fbw_i32_vec(m->inputs, (size_t)m->nin));
  fbw_obj(sg, 2, fbw_i32_vec(m->outputs, (size_t)m->nout));
  fbw_obj(sg, 3, fbw_obj_vec(ops, (size_t)m->nops));
  fbw_obj(sg, 4, fbw_string("main"));
  FbObj *model = fbw_table();
  fbw_u32(model, 0, 3);
  fbw_obj(model, 1, fbw_obj_vec(codes, (size_t)m->ncodes));
  fbw_obj(model, 2, fbw_obj_vec(&sg, 1));
  fbw_obj(model, 3, fbw_string("tinyaot fuzz-diff"));
  fbw_obj(model, 4, fbw_obj_vec(buffers, (size_t)nbuf));
  size_t len = fbw_finish(model, "TFL3", bytes);
  free(tensors);
  free(buffers);
  free(ops);
  return len;
}

static void write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
    fprintf(stderr, "fuzz_diff_gen: cannot write %s\n", path);
    exit(2);
  }
}

static const char *type_name(int type) {
  switch (type) {
    case T_I8: return "int8";
    case T_I16: return "int16";
    case T_I32: return "int32";
    case T_I64: return "int64";
    case T_BOOL: return "bool";
    default: return "float32";
  }
}

static const char *op_name(int code) {
  switch (code) {
    case OP_ADD: return "ADD"; case OP_AVG_POOL: return "AVERAGE_POOL_2D"; case OP_CONCAT: return "CONCATENATION";
    case OP_CONV: return "CONV_2D"; case OP_DWCONV: return "DEPTHWISE_CONV_2D"; case OP_DEQUANTIZE: return "DEQUANTIZE";
    case OP_FLOOR: return "FLOOR"; case OP_FC: return "FULLY_CONNECTED"; case OP_LOGISTIC: return "LOGISTIC";
    case OP_MAX_POOL: return "MAX_POOL_2D"; case OP_MUL: return "MUL"; case OP_RELU: return "RELU";
    case OP_RELU6: return "RELU6"; case OP_RESHAPE: return "RESHAPE"; case OP_SOFTMAX: return "SOFTMAX";
    case OP_TANH: return "TANH"; case OP_PAD: return "PAD"; case OP_TRANSPOSE: return "TRANSPOSE";
    case OP_MEAN: return "MEAN"; case OP_SUB: return "SUB"; case OP_STRIDED_SLICE: return "STRIDED_SLICE";
    case OP_EXP: return "EXP"; case OP_PRELU: return "PRELU"; case OP_MAXIMUM: return "MAXIMUM";
    case OP_MINIMUM: return "MINIMUM"; case OP_NEG: return "NEG"; case OP_SLICE: return "SLICE";
    case OP_SIN: return "SIN"; case OP_LOG: return "LOG"; case OP_SUM: return "SUM"; case OP_SQRT: return "SQRT";
    case OP_RSQRT: return "RSQRT"; case OP_REDUCE_MAX: return "REDUCE_MAX"; case OP_SQUARE: return "SQUARE";
    case OP_LEAKY_RELU: return "LEAKY_RELU"; case OP_SQUARED_DIFF: return "SQUARED_DIFFERENCE";
    case OP_ABS: return "ABS"; case OP_CEIL: return "CEIL"; case OP_COS: return "COS";
    case OP_QUANTIZE: return "QUANTIZE"; case OP_ROUND: return "ROUND"; case OP_HARD_SWISH: return "HARD_SWISH";
    case OP_L2_NORM: return "L2_NORMALIZATION"; case OP_RESIZE_BILINEAR: return "RESIZE_BILINEAR";
    case OP_SPACE_TO_DEPTH: return "SPACE_TO_DEPTH"; case OP_DEPTH_TO_SPACE: return "DEPTH_TO_SPACE";
    case OP_DIV: return "DIV"; case OP_LESS: return "LESS"; case OP_GREATER: return "GREATER";
    case OP_TRANSPOSE_CONV: return "TRANSPOSE_CONV"; case OP_RESIZE_NEAREST: return "RESIZE_NEAREST_NEIGHBOR";
    case OP_ELU: return "ELU"; case OP_SELECT_V2: return "SELECT_V2"; case OP_BATCH_MATMUL: return "BATCH_MATMUL";
    case OP_CAST: return "CAST"; case OP_ARG_MAX: return "ARG_MAX"; case OP_ARG_MIN: return "ARG_MIN";
    case OP_GATHER: return "GATHER"; case OP_GATHER_ND: return "GATHER_ND"; case OP_SPLIT: return "SPLIT";
    case OP_SPLIT_V: return "SPLIT_V"; case OP_PACK: return "PACK"; case OP_UNPACK: return "UNPACK";
    case OP_SQUEEZE: return "SQUEEZE"; case OP_EXPAND_DIMS: return "EXPAND_DIMS"; case OP_EQUAL: return "EQUAL";
    case OP_NOT_EQUAL: return "NOT_EQUAL"; case OP_LESS_EQUAL: return "LESS_EQUAL";
    case OP_GREATER_EQUAL: return "GREATER_EQUAL"; case OP_LOGICAL_OR: return "LOGICAL_OR";
    case OP_LOGICAL_AND: return "LOGICAL_AND"; case OP_LOGICAL_NOT: return "LOGICAL_NOT";
    case OP_MIRROR_PAD: return "MIRROR_PAD"; case OP_PADV2: return "PADV2"; case OP_LOG_SOFTMAX: return "LOG_SOFTMAX";
    case OP_ADD_N: return "ADD_N"; case OP_CUMSUM: return "CUMSUM"; case OP_BROADCAST_TO: return "BROADCAST_TO";
    case OP_FLOOR_DIV: return "FLOOR_DIV"; case OP_FLOOR_MOD: return "FLOOR_MOD";
    case OP_REVERSE_V2: return "REVERSE_V2"; case OP_REDUCE_MIN: return "REDUCE_MIN";
    default: return "?";
  }
}

/* The operand whose dtype names an operator's variant (not a shape, axis or condition). */
static int data_input(const Op *op) {
  switch (op->code) {
    case OP_TRANSPOSE_CONV: return op->in[2];
    case OP_SPLIT: case OP_SELECT_V2: return op->in[1];
    default: return op->in[0];
  }
}

/* outputs.txt: per output its graph, comparison and the graph's operators (for triage). */
static void write_outputs_txt(const Model *m, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) exit(2);
  for (int i = 0; i < m->nout; i++) {
    int g = m->out_graph[i], ti = m->outputs[i];
    fprintf(f, "%d %s %s", g, m->t[ti].type == T_F32 ? "float32" : "exact", type_name(m->t[ti].type));
    char sep = ' ';
    for (int k = 0; k < m->nops; k++)
      if (m->ops[k].graph == g) {
        fprintf(f, "%c%s:%s", sep, op_name(m->ops[k].code), type_name(m->t[data_input(&m->ops[k])].type));
        sep = ',';
      }
    fprintf(f, "\n");
  }
  fclose(f);
}

static uint64_t graph_seed(uint64_t seed, uint64_t batch, uint64_t graph) {
  Rng r = {seed ^ (batch * 0xD1B54A32D192ED03ull) ^ (graph * 0x8CB92BA72F3D8DD7ull)};
  next_u64(&r);
  return next_u64(&r);
}

/* Is graph g in the comma-separated list (graphs the oracle refused)? */
static bool skipped(const char *list, int g) {
  for (const char *p = list; *p;) {
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p) return false;
    if (v == g) return true;
    p = *end == ',' ? end + 1 : end;
  }
  return false;
}

static int write_model(Model *m, const char *dir);

static int cmd_gen(int argc, char **argv) {
  if (argc < 6) return 2;
  uint64_t seed = strtoull(argv[2], NULL, 0), batch = strtoull(argv[3], NULL, 0);
  int graphs = atoi(argv[4]), only = -1;
  const char *dir = argv[5];
  const char *skip = "";
  bool edges = false, chains = false, m_tiers = false;
  for (int a = 6; a < argc; a++) {
    if (!strcmp(argv[a], "--edges")) edges = true;
    else if (!strcmp(argv[a], "--chains")) chains = true; /* issue 29 */
    else if (!strcmp(argv[a], "--tiers")) m_tiers = true;
    else if (!strcmp(argv[a], "--only") && a + 1 < argc) only = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--skip") && a + 1 < argc) skip = argv[++a];
  }
  if (graphs < 1 || graphs > 200) return 2;
  Model *m = xmalloc(sizeof *m);
  m->edges = edges;
  m->tiers = m_tiers;
  int made = 0;
  for (int g = 0; g < graphs; g++) {
    if ((only >= 0 && g != only) || skipped(skip, g)) continue;
    Rng r = {graph_seed(seed, batch, (uint64_t)g)};
    int nt = m->nt, nops = m->nops, nin = m->nin, nout = m->nout, ncodes = m->ncodes;
    m->graph = g;
    if (chains) gen_chain(m, &r);
    else gen_graph(m, &r);
    if (m->nin > MAX_FILE_INPUTS && made > 0) { /* `tinyaot run` takes 64 inputs: the file is full */
      m->nt = nt, m->nops = nops, m->nin = nin, m->nout = nout, m->ncodes = ncodes;
      break;
    }
    made++;
  }
  printf("graphs %d\n", made);
  return write_model(m, dir);
}

/* OUTDIR/model.tflite, OUTDIR/case_0/in<i>.bin and OUTDIR/outputs.txt of the model. */
static int write_model(Model *m, const char *dir) {
  char path[4096];
  mkdir(dir, 0777);
  snprintf(path, sizeof path, "%s/case_0", dir);
  mkdir(path, 0777);
  uint8_t *bytes;
  size_t len = serialize(m, &bytes);
  snprintf(path, sizeof path, "%s/model.tflite", dir);
  write_file(path, bytes, len);
  free(bytes);
  for (int i = 0; i < m->nin; i++) {
    snprintf(path, sizeof path, "%s/case_0/in%d.bin", dir, i);
    write_file(path, m->t[m->inputs[i]].data, m->t[m->inputs[i]].bytes);
  }
  snprintf(path, sizeof path, "%s/outputs.txt", dir);
  write_outputs_txt(m, path);
  return 0;
}

/* fuzz_diff_gen conv SEED OUTDIR H W CIN COUT KH KW SH SW SAME ACT PER_CHANNEL: one int8
 * CONV_2D of that shape (SAME 1: padding SAME, else VALID; ACT a fused activation code,
 * a ReLU with the output zero point -128), random values and quantization from SEED: the
 * shapes a kernel path takes (tests/suites/conv_tiers_m4.sh). */
static int cmd_conv(int argc, char **argv) {
  if (argc < 15) return 2;
  int v[11];
  for (int i = 0; i < 11; i++) v[i] = atoi(argv[4 + i]);
  const int h = v[0], w = v[1], cin = v[2], cout = v[3], kh = v[4], kw = v[5], sh = v[6], sw = v[7];
  const int padding = v[8] ? PAD_SAME : PAD_VALID, act = v[9], per_channel = v[10];
  Model *m = xmalloc(sizeof *m);
  Rng r = {graph_seed(strtoull(argv[2], NULL, 0), 0, 0)};
  const int32_t xd[4] = {1, h, w, cin};
  const int x = input_tensor(m, &r, T_I8, 4, xd);
  const int oh = out_extent(h, kh, sh, 1, padding), ow = out_extent(w, kw, sw, 1, padding);
  if (oh <= 0 || ow <= 0) return 2;
  const int32_t wd[4] = {cout, kh, kw, cin};
  const int wt = weights(m, &r, T_I8, 4, wd, 0, per_channel != 0);
  const int b = bias(m, &r, x, wt, cout, false);
  const int32_t yd[4] = {1, oh, ow, cout};
  const int y = like(m, x, 4, yd);
  dot_out_quant(m, &r, x, wt, y, kh * kw * cin);
  if (act == ACT_RELU) m->t[y].zp = -128;
  FbObj *o = fbw_table();
  fbw_u8(o, 0, (uint8_t)padding);
  fbw_i32(o, 1, sw);
  fbw_i32(o, 2, sh);
  fbw_u8(o, 3, (uint8_t)act);
  fbw_i32(o, 4, 1);
  fbw_i32(o, 5, 1);
  Op *op = add_op(m, OP_CONV, OT_CONV, o);
  op->in[0] = x, op->in[1] = wt, op->in[2] = b, op->nin = 3, op->out[0] = y, op->nout = 1;
  mark_output(m, y);
  return write_model(m, argv[3]);
}

/* fuzz_diff_gen dwconv SEED OUTDIR H W CH KH KW SH SW SAME ACT PER_CHANNEL [DM [DIL]]: one
 * int8 DEPTHWISE_CONV_2D of that shape (CH input channels, depth multiplier DM, default 1,
 * dilation DIL both ways, default 1), as `conv` (tests/suites/depthwise_tiers_m4.sh). */
static int cmd_dwconv(int argc, char **argv) {
  if (argc < 14) return 2;
  int v[10];
  for (int i = 0; i < 10; i++) v[i] = atoi(argv[4 + i]);
  const int h = v[0], w = v[1], in_ch = v[2], kh = v[3], kw = v[4], sh = v[5], sw = v[6];
  const int padding = v[7] ? PAD_SAME : PAD_VALID, act = v[8], per_channel = v[9];
  const int dm = argc > 14 ? atoi(argv[14]) : 1, dil = argc > 15 ? atoi(argv[15]) : 1;
  if (dm < 1 || dil < 1) return 2;
  const int ch = in_ch * dm;
  Model *m = xmalloc(sizeof *m);
  Rng r = {graph_seed(strtoull(argv[2], NULL, 0), 0, 0)};
  const int32_t xd[4] = {1, h, w, in_ch};
  const int x = input_tensor(m, &r, T_I8, 4, xd);
  const int oh = out_extent(h, kh, sh, dil, padding), ow = out_extent(w, kw, sw, dil, padding);
  if (oh <= 0 || ow <= 0) return 2;
  const int32_t wd[4] = {1, kh, kw, ch};
  const int wt = weights(m, &r, T_I8, 4, wd, 3, per_channel != 0);
  const int b = bias(m, &r, x, wt, ch, false);
  const int32_t yd[4] = {1, oh, ow, ch};
  const int y = like(m, x, 4, yd);
  dot_out_quant(m, &r, x, wt, y, kh * kw);
  if (act == ACT_RELU) m->t[y].zp = -128;
  FbObj *o = fbw_table();
  fbw_u8(o, 0, (uint8_t)padding);
  fbw_i32(o, 1, sw);
  fbw_i32(o, 2, sh);
  fbw_i32(o, 3, dm);
  fbw_u8(o, 4, (uint8_t)act);
  fbw_i32(o, 5, dil);
  fbw_i32(o, 6, dil);
  Op *op = add_op(m, OP_DWCONV, OT_DWCONV, o);
  op->in[0] = x, op->in[1] = wt, op->in[2] = b, op->nin = 3, op->out[0] = y, op->nout = 1;
  mark_output(m, y);
  return write_model(m, argv[3]);
}

/* ---- tier coverage matrix (issue 29) ---------------------------------------------
 *
 * fuzz_diff_gen matrix SEED OUTDIR SET PART [PER_PART]
 *     writes OUTDIR/model.tflite, OUTDIR/case_0/in<i>.bin and OUTDIR/outputs.txt (as `gen`)
 *     holding layers PART * PER_PART .. (PART + 1) * PER_PART - 1 (PER_PART default 48) of
 *     the matrix SET (`full` or `quick`): independent int8 and int16x8 CONV_2D,
 *     DEPTHWISE_CONV_2D and FULLY_CONNECTED layers, one input and one output each, whose
 *     shapes cross the boundaries the DSP and MVE tiers specialise at (channel counts 1-17
 *     and around the block sizes 4, 8, 16, 28, 40, 48, 64, 128; 1x1, 3x3, 5x5, 1xN, Nx1
 *     windows; strides 1 and 2; SAME and VALID; dilation; batch 2; depth multipliers 1-3)
 *     with per-tensor and per-channel filters, input zero points -128, 0, 127 and random,
 *     output zero points -128, 0, 127 and random and the fused activations none, ReLU and
 *     ReLU6. Prints "layers N total T": N written, T in the set (PART beyond the last:
 *     N = 0, exit 0). outputs.txt's description names each layer's parameters, e.g.
 *     "conv i8 n1 6x7x5 k3x3 s1x1 d1x1 same oc8 pt zin-128 zout-128 act0".
 * Layer L draws its values from (SEED, L) alone: the same layer has the same bytes in
 * any part size. `quick` is a fixed subset of `full` (tests/suites/tier_matrix.sh). */

enum { MX_CONV = 0, MX_DW = 1, MX_FC = 2 };
enum { MX_ZP_RANDOM = 1000 };

typedef struct MxLayer {
  int op, s16;
  int n, h, w, c;      /* FC: n batch rows of depth c */
  int oc;              /* CONV_2D output channels, DEPTHWISE depth multiplier, FC units */
  int kh, kw, sh, sw, dh, dw, same, act, pc, zin, zout;
  bool b32;            /* int16x8 with an int32 bias (the tiers need int64) */
  int qmod;            /* MX_Q_*: channel 0's filter scale scaled (per-channel layers) */
  int idx;             /* index in the `full` set (its values' seed) */
} MxLayer;

/* Channel 0's filter scale times 3e-4 (int16x8: 3e-3, as TFLite Micro takes no shift below
 * -31): a right shift beyond 23, where the DSP tier adds the zero point after the shift and
 * the int16x8 blocks shift the high word; or times 1e4: a left shift (the MVE left-shift
 * loops, the DSP generic requantisation). */
enum { MX_Q_PLAIN = 0, MX_Q_TINY = 1, MX_Q_HUGE = 2 };

typedef struct MxList {
  MxLayer *v;
  int n, cap;
  int seq;             /* counter that rotates zero points, activations and per-channel */
} MxList;

static void mx_push(MxList *l, MxLayer x) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 256;
    MxLayer *v = realloc(l->v, sizeof *v * (size_t)l->cap);
    if (!v) abort();
    l->v = v;
  }
  l->v[l->n++] = x;
}

/* A layer with the rotating quantisation: input zero point -128, 0, 127, random; output
 * -128, random, 0, 127, -128 (the DSP pair loops need a clamp at or above it, so -128
 * and ReLU come often); activation none, ReLU, none, ReLU6; per-channel every other. */
static void mx_add(MxList *l, int op, int s16, int n, int h, int w, int c, int oc, int kh, int kw, int sh, int sw,
                   int dh, int dw, int same) {
  static const int zin[4] = {-128, 0, 127, MX_ZP_RANDOM}, zout[5] = {-128, MX_ZP_RANDOM, 0, 127, -128};
  static const int acts[4] = {ACT_NONE, ACT_RELU, ACT_NONE, ACT_RELU6};
  const int k = l->seq++;
  MxLayer x = {op, s16, n, h, w, c, oc, kh, kw, sh, sw, dh, dw, same, acts[(k / 3) % 4], (k / 2) % 2 == 0,
               s16 ? 0 : zin[k % 4], s16 ? 0 : zout[(k / 4) % 5], false, 0, 0};
  mx_push(l, x);
}

static void mx_conv(MxList *l, int s16, int h, int w, int c, int oc, int kh, int kw, int s, int d, int same) {
  mx_add(l, MX_CONV, s16, 1, h, w, c, oc, kh, kw, s, s, d, d, same);
}
static void mx_dw(MxList *l, int s16, int h, int w, int c, int dm, int kh, int kw, int s, int d, int same) {
  mx_add(l, MX_DW, s16, 1, h, w, c, dm, kh, kw, s, s, d, d, same);
}
static void mx_fc(MxList *l, int s16, int n, int depth, int units) {
  mx_add(l, MX_FC, s16, n, 1, 1, depth, units, 1, 1, 1, 1, 1, 1, 0);
}

/* The whole matrix; returns the count of its first layers that are regression checks
 * (`quick` has them and every layer of index % 6 == 0). */
static int mx_full(MxList *l) {
  /* issue 29: 3x3 x 5 channels, the window's depth 45 padded to 48 for the DSP pair loop */
  MxLayer c5 = {MX_CONV, 0, 1, 10, 8, 5, 8, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 0, -128, -128, false, 0, 0};
  mx_push(l, c5);
  c5.pc = 1, c5.c = 7, c5.oc = 6, c5.act = ACT_RELU, c5.zout = 5;
  mx_push(l, c5); /* depth 63 -> 64, per-channel */
  const int regress = l->n;
  for (int s16 = 0; s16 <= 1; s16++) {
    /* CONV_2D: input channels 1-17 (3x3 SAME and 1x1), output channels 1-17 */
    for (int c = 1; c <= 17; c++) mx_conv(l, s16, 6, 7, c, 2 + (c * 5) % 15, 3, 3, 1, 1, 1);
    for (int c = 1; c <= 17; c++) mx_conv(l, s16, 5, 6, c, 1 + (c * 7) % 17, 1, 1, 1, 1, 0);
    for (int oc = 1; oc <= 17; oc++) mx_conv(l, s16, 5, 5, 16, oc, 1, 1, 1, 1, 0);
    for (int oc = 1; oc <= 17; oc++) mx_conv(l, s16, 5, 6, 8, oc, 3, 3, 1, 1, 1);
    /* around the block sizes: depths of whole and partial 16-, 48- and 64-value passes */
    static const int blocks[] = {4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 56, 64, 72, 80, 96, 128, 144};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
      const int c = blocks[i];
      mx_conv(l, s16, 5, 5, c, 2 + 2 * (int)(i % 4), 1, 1, 1, 1, 0);
      mx_conv(l, s16, 5, 4, c, 4 + (int)(i % 3), 3, 3, 1, 1, i % 2 == 0);
    }
    /* windows, strides, padding, dilation */
    static const int kshape[][2] = {{5, 5}, {1, 5}, {5, 1}, {1, 3}, {3, 1}, {2, 2}, {10, 4}, {1, 10}, {3, 5}};
    static const int kch[] = {1, 3, 5, 8, 16};
    for (size_t i = 0; i < sizeof kshape / sizeof kshape[0]; i++)
      for (size_t j = 0; j < sizeof kch / sizeof kch[0]; j++) {
        const int s = 1 + (int)((i + j) % 2), same = (int)((i + 2 * j) % 2);
        mx_conv(l, s16, 12, 11, kch[j], 2 + (int)((i + j) % 7), kshape[i][0], kshape[i][1], s, 1, same);
      }
    for (int c = 2; c <= 16; c *= 2) {
      mx_conv(l, s16, 9, 9, c, 4, 3, 3, 1, 2, 1);   /* dilation 2 */
      mx_conv(l, s16, 9, 10, c, 6, 3, 3, 2, 1, 0);  /* stride 2 VALID */
      mx_conv(l, s16, 10, 9, c, 3, 3, 3, 2, 1, 1);  /* stride 2 SAME */
      mx_add(l, MX_CONV, s16, 1, 9, 8, c, 4, 3, 3, 1, 2, 1, 1, 1); /* stride 1x2 */
      mx_add(l, MX_CONV, s16, 1, 8, 9, c + 1, 4, 3, 2, 2, 1, 2, 1, 0); /* dilation 2x1 */
    }
    for (int c = 3; c <= 16; c += 13) {
      mx_add(l, MX_CONV, s16, 2, 5, 6, c, 4, 3, 3, 1, 1, 1, 1, 1); /* batch 2 */
      mx_add(l, MX_CONV, s16, 3, 4, 4, c, 5, 1, 1, 1, 1, 1, 1, 0);
    }
    /* one-pixel maps and wide rows: the pair loops' odd pixel counts */
    mx_conv(l, s16, 1, 1, 32, 8, 1, 1, 1, 1, 0);
    mx_conv(l, s16, 1, 13, 16, 6, 1, 1, 1, 1, 0);
    mx_conv(l, s16, 3, 17, 16, 4, 1, 5, 1, 1, 1);
    mx_conv(l, s16, 2, 25, 24, 2, 1, 3, 1, 1, 1);

    /* DEPTHWISE_CONV_2D: channels 1-17 (3x3 SAME, and 3x3 VALID stride 2) */
    for (int c = 1; c <= 17; c++) mx_dw(l, s16, 7, 8, c, 1, 3, 3, 1, 1, 1);
    for (int c = 1; c <= 17; c++) mx_dw(l, s16, 7, 9, c, 1, 3, 3, 2, 1, 0);
    static const int dch[] = {20, 24, 28, 32, 40, 48, 64, 96, 128};
    for (size_t i = 0; i < sizeof dch / sizeof dch[0]; i++) {
      mx_dw(l, s16, 6, 7, dch[i], 1, 3, 3, 1, 1, 1);
      mx_dw(l, s16, 7, 6, dch[i], 1, 3, 3, 2, 1, i % 2 == 0);
    }
    /* depth multipliers */
    for (int c = 1; c <= 8; c++) mx_dw(l, s16, 6, 6, c, 2 + c % 2, 3, 3, 1 + c % 2, 1, c % 3 != 0);
    /* windows: 5x5, columns (Nx1 over narrow maps: the M55 column and one-call forms), rows */
    static const int dk[][2] = {{5, 5}, {1, 3}, {3, 1}, {1, 5}, {5, 1}, {10, 1}, {2, 2}, {3, 2}};
    static const int dkc[] = {4, 8, 16, 6, 2};
    for (size_t i = 0; i < sizeof dk / sizeof dk[0]; i++)
      for (size_t j = 0; j < sizeof dkc / sizeof dkc[0]; j++)
        mx_dw(l, s16, 12, 7 - (int)j, dkc[j], 1, dk[i][0], dk[i][1], 1 + (int)((i + j) % 2), 1, (int)((i + j) % 3 != 0));
    for (int c = 4; c <= 16; c *= 2) {
      mx_dw(l, s16, 24, 1, c, 1, 5, 1, 1, 1, 0); /* one-pixel-wide column, whole windows */
      mx_dw(l, s16, 24, 1, c, 1, 3, 1, 1, 1, 1); /* padded */
      mx_dw(l, s16, 16, 3, c, 1, 3, 3, 1, 1, 1); /* narrow and tall */
      mx_dw(l, s16, 9, 9, c, 1, 3, 3, 1, 2, 1);  /* dilation 2 */
      mx_add(l, MX_DW, s16, 2, 6, 6, c, 1, 3, 3, 1, 1, 1, 1, 1); /* batch 2 */
      mx_dw(l, s16, 4, 12, c, 1, 3, 3, 1, 1, 1); /* wide rows */
    }
    mx_dw(l, s16, 1, 1, 16, 1, 1, 1, 1, 1, 0);
    mx_dw(l, s16, 3, 3, 16, 1, 3, 3, 1, 1, 0);

    /* FULLY_CONNECTED: depth 1-17, units 1-17, the block and stream sizes, batches */
    for (int k = 1; k <= 17; k++) mx_fc(l, s16, 1, k, 1 + (k * 5) % 17);
    for (int u = 1; u <= 17; u++) mx_fc(l, s16, 1 + u % 3, 24, u);
    static const int fd[] = {8, 16, 32, 40, 64, 100, 128, 256, 384, 512, 640, 768};
    for (size_t i = 0; i < sizeof fd / sizeof fd[0]; i++) {
      mx_fc(l, s16, 1, fd[i], 4 * (1 + (int)(i % 4)));
      mx_fc(l, s16, 1 + (int)(i % 3), fd[i], 3 + 7 * (int)(i % 2));
    }
  }
  /* requantisation edges: one channel with a tiny or a huge scale (per-channel), output
   * zero point -128 and no activation (the DSP loops that add the zero point after the
   * shift need no negative-rounding fix) */
  for (int s16 = 0; s16 <= 1; s16++)
    for (int q = MX_Q_TINY; q <= MX_Q_HUGE; q++) {
      static const MxLayer e[] = {
          {MX_CONV, 0, 1, 5, 6, 16, 8, 1, 1, 1, 1, 1, 1, 0, ACT_NONE, 1, -128, -128, false, 0, 0},
          {MX_CONV, 0, 1, 5, 6, 64, 4, 1, 1, 1, 1, 1, 1, 0, ACT_NONE, 1, 5, -128, false, 0, 0},
          {MX_CONV, 0, 1, 6, 7, 8, 6, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 1, -128, -128, false, 0, 0},
          {MX_CONV, 0, 1, 6, 7, 5, 4, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 1, -128, -128, false, 0, 0},
          {MX_FC, 0, 1, 1, 1, 24, 12, 1, 1, 1, 1, 1, 1, 0, ACT_NONE, 1, 0, -128, false, 0, 0},
          {MX_FC, 0, 2, 1, 1, 64, 12, 1, 1, 1, 1, 1, 1, 0, ACT_NONE, 1, 0, -128, false, 0, 0},
          {MX_FC, 0, 1, 1, 1, 24, 4, 1, 1, 1, 1, 1, 1, 0, ACT_NONE, 1, 0, -128, false, 0, 0},
          {MX_FC, 0, 1, 1, 1, 128, 8, 1, 1, 1, 1, 1, 1, 0, ACT_NONE, 1, 0, -128, false, 0, 0},
          {MX_DW, 0, 1, 6, 7, 8, 1, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 1, 0, -128, false, 0, 0},
          {MX_DW, 0, 1, 6, 7, 16, 1, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 1, 0, 3, false, 0, 0},
          {MX_DW, 0, 1, 12, 3, 16, 1, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 1, 0, -128, false, 0, 0},
      };
      for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
        MxLayer x = e[i];
        x.s16 = s16, x.qmod = q;
        if (s16) x.zin = x.zout = 0;
        mx_push(l, x);
      }
    }
  /* int8 boundaries the rotation above may miss: the DSP column form in pairs of 64- and
   * 48-value passes with and without the negative-rounding fix, MVE windows inside the image
   * spanning more than 256 bytes (16-bit gather offsets, 1-4 chunks), a row-pair depthwise
   * layer of 5 output columns (DSP), 16-channel depthwise maps narrow and tall (MVE one-call
   * form) with the int8 range and without */
  static const MxLayer ex[] = {
      {MX_CONV, 0, 1, 5, 4, 64, 6, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 1, 3, 9, false, 0, 0},
      {MX_CONV, 0, 1, 5, 4, 64, 6, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 0, -128, -128, false, 0, 0},
      {MX_CONV, 0, 1, 6, 9, 16, 4, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 1, -128, -128, false, 0, 0},
      {MX_CONV, 0, 1, 6, 9, 16, 4, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 0, 17, -30, false, 0, 0},
      {MX_CONV, 0, 1, 6, 9, 32, 2, 3, 3, 1, 1, 1, 1, 0, ACT_RELU, 1, -128, -128, false, 0, 0},
      {MX_CONV, 0, 1, 5, 70, 4, 4, 2, 2, 1, 1, 1, 1, 0, ACT_NONE, 1, 0, -20, false, 0, 0},
      {MX_CONV, 0, 1, 5, 50, 3, 4, 3, 3, 1, 1, 1, 1, 0, ACT_NONE, 0, -128, -128, false, 0, 0},
      {MX_CONV, 0, 1, 5, 40, 4, 4, 3, 3, 1, 1, 1, 1, 1, ACT_RELU, 1, 127, -128, false, 0, 0},
      {MX_CONV, 0, 1, 6, 70, 2, 4, 5, 5, 1, 1, 1, 1, 0, ACT_NONE, 1, 40, 0, false, 0, 0},
      {MX_DW, 0, 1, 6, 5, 8, 1, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 1, -128, -128, false, 0, 0},
      {MX_DW, 0, 1, 7, 5, 12, 1, 3, 3, 1, 1, 1, 1, 1, ACT_RELU, 0, 3, -128, false, 0, 0},
      {MX_DW, 0, 1, 16, 4, 16, 1, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 1, 7, -128, false, 0, 0},
      {MX_DW, 0, 1, 16, 4, 16, 1, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 0, -128, 20, false, 0, 0},
      {MX_DW, 0, 1, 12, 2, 16, 1, 3, 3, 1, 1, 1, 1, 0, ACT_NONE, 1, 0, -128, false, 0, 0},
      {MX_DW, 0, 1, 18, 1, 32, 1, 4, 1, 1, 1, 1, 1, 0, ACT_NONE, 1, 0, 0, false, 0, 0},
      {MX_DW, 0, 1, 10, 3, 32, 1, 3, 3, 1, 1, 1, 1, 1, ACT_RELU6, 1, -5, -128, false, 0, 0},
  };
  for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) mx_push(l, ex[i]);
  /* the M4 CONV_2D forms with dilation down, batches, strides and odd pixel counts: the
   * column form (whole groups of 4 channels, dilation 1 across), the first-layer form (fewer
   * than 4 channels), 1x1 layers read in place at stride 2 (the pair loop's odd calls) */
  for (int s16 = 0; s16 <= 1; s16++) {
    static const MxLayer f[] = {
        {MX_CONV, 0, 1, 9, 8, 4, 4, 3, 3, 1, 1, 2, 1, 1, ACT_NONE, 1, -128, -128, false, 0, 0},
        {MX_CONV, 0, 1, 9, 8, 8, 6, 3, 3, 1, 1, 2, 1, 1, ACT_NONE, 0, 5, -128, false, 0, 0},
        {MX_CONV, 0, 1, 9, 8, 16, 4, 3, 3, 1, 1, 2, 1, 0, ACT_NONE, 1, -128, 12, false, 0, 0},
        {MX_CONV, 0, 2, 6, 9, 16, 6, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 1, -128, -128, false, 0, 0},
        {MX_CONV, 0, 2, 6, 9, 16, 4, 3, 3, 2, 2, 1, 1, 1, ACT_NONE, 1, 9, -7, false, 0, 0},
        {MX_CONV, 0, 2, 8, 8, 3, 8, 3, 3, 2, 2, 1, 1, 1, ACT_RELU, 1, -128, -128, false, 0, 0},
        {MX_CONV, 0, 1, 9, 9, 3, 4, 3, 3, 1, 1, 2, 2, 1, ACT_NONE, 0, -128, -128, false, 0, 0},
        {MX_CONV, 0, 2, 13, 6, 1, 4, 10, 4, 2, 2, 1, 1, 1, ACT_RELU, 1, -128, -128, false, 0, 0},
        {MX_CONV, 0, 1, 9, 7, 2, 6, 3, 3, 1, 1, 1, 1, 0, ACT_NONE, 1, 0, -128, false, 0, 0},
        {MX_CONV, 0, 1, 3, 26, 16, 4, 1, 1, 2, 2, 1, 1, 0, ACT_NONE, 1, -128, -128, false, 0, 0},
        {MX_CONV, 0, 1, 3, 30, 32, 6, 1, 1, 2, 2, 1, 1, 0, ACT_RELU, 0, 0, -128, false, 0, 0},
        {MX_CONV, 0, 1, 4, 17, 16, 2, 1, 1, 1, 1, 1, 1, 0, ACT_NONE, 1, 100, -128, false, 0, 0},
        {MX_CONV, 0, 1, 5, 5, 40, 6, 1, 1, 1, 1, 1, 1, 0, ACT_NONE, 1, -128, -128, false, 0, 0},
        {MX_CONV, 0, 1, 5, 5, 40, 6, 1, 1, 1, 1, 1, 1, 0, ACT_NONE, 1, -3, 60, false, 0, 0},
        {MX_CONV, 0, 1, 7, 15, 16, 4, 3, 3, 2, 2, 1, 1, 1, ACT_NONE, 1, -128, -128, false, 0, 0},
        {MX_CONV, 0, 1, 5, 27, 8, 4, 1, 3, 1, 2, 1, 1, 1, ACT_RELU, 1, -128, -128, false, 0, 0},
        {MX_DW, 0, 2, 7, 9, 8, 1, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 1, -128, -128, false, 0, 0},
        {MX_DW, 0, 1, 9, 9, 8, 1, 3, 3, 1, 1, 2, 1, 1, ACT_NONE, 1, 10, -128, false, 0, 0},
        {MX_DW, 0, 1, 9, 9, 16, 1, 3, 3, 1, 2, 1, 1, 1, ACT_RELU, 0, 0, -128, false, 0, 0},
        {MX_DW, 0, 1, 5, 20, 4, 1, 3, 3, 1, 1, 1, 1, 0, ACT_NONE, 1, -128, -128, false, 0, 0},
        {MX_FC, 0, 3, 1, 1, 128, 8, 1, 1, 1, 1, 1, 1, 0, ACT_NONE, 1, 0, -128, false, 0, 0},
        {MX_FC, 0, 2, 1, 1, 8, 8, 1, 1, 1, 1, 1, 1, 0, ACT_NONE, 0, -128, -128, false, 0, 0},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
      MxLayer x = f[i];
      x.s16 = s16;
      if (s16) x.zin = x.zout = 0;
      mx_push(l, x);
    }
  }
  /* int16x8 with an int32 bias (portable: the tiers take int64 biases); CONV_2D and
   * FULLY_CONNECTED only: TFLite Micro's int16 depthwise reads any bias as int64 */
  for (int i = 0; i < 3; i += 2) {
    MxLayer b = {i, 1, 1, 5, 5, 8, i == MX_DW ? 1 : 4, i == MX_FC ? 1 : 3, i == MX_FC ? 1 : 3, 1, 1, 1, 1, 1,
                 ACT_NONE, 1, 0, 0, true, 0, 0};
    if (i == MX_FC) b.h = b.w = 1;
    mx_push(l, b);
  }
  for (int i = 0; i < l->n; i++) l->v[i].idx = i;
  return regress;
}

static const char *mx_op_name(int op) { return op == MX_CONV ? "conv" : op == MX_DW ? "dw" : "fc"; }

static void mx_describe(const MxLayer *x, char *buf, size_t n) {
  char zin[16], zout[16];
  snprintf(zin, sizeof zin, x->zin == MX_ZP_RANDOM ? "r" : "%d", x->zin);
  snprintf(zout, sizeof zout, x->zout == MX_ZP_RANDOM ? "r" : "%d", x->zout);
  if (x->op == MX_FC)
    snprintf(buf, n, "fc %s n%d depth%d units%d %s zin%s zout%s act%d", x->s16 ? (x->b32 ? "i16b32" : "i16") : "i8",
             x->n, x->c, x->oc, x->pc ? "pc" : "pt", zin, zout, x->act);
  else
    snprintf(buf, n, "%s %s n%d %dx%dx%d k%dx%d s%dx%d d%dx%d %s %s%d %s zin%s zout%s act%d", mx_op_name(x->op),
             x->s16 ? (x->b32 ? "i16b32" : "i16") : "i8", x->n, x->h, x->w, x->c, x->kh, x->kw, x->sh, x->sw, x->dh,
             x->dw, x->same ? "same" : "valid", x->op == MX_DW ? "dm" : "oc", x->oc, x->pc ? "pc" : "pt", zin, zout,
             x->act);
  if (x->qmod) snprintf(buf + strlen(buf), n - strlen(buf), " %s", x->qmod == MX_Q_TINY ? "tiny0" : "huge0");
}

/* Layer x as graph g of m; false when its window leaves no output (not in the matrix). */
static bool mx_emit(Model *m, const MxLayer *x, uint64_t seed, int g) {
  Rng r = {graph_seed(seed, 29, (uint64_t)g)};
  m->graph = g;
  const int type = x->s16 ? T_I16 : T_I8;
  int32_t xd[4] = {x->n, x->h, x->w, x->c};
  const int conv = x->op != MX_FC;
  const int oh = conv ? out_extent(x->h, x->kh, x->sh, x->dh, x->same ? PAD_SAME : PAD_VALID) : 1;
  const int ow = conv ? out_extent(x->w, x->kw, x->sw, x->dw, x->same ? PAD_SAME : PAD_VALID) : 1;
  if (oh <= 0 || ow <= 0) return false;
  const int in = input_tensor(m, &r, type, conv ? 4 : 2, conv ? xd : (int32_t[]){x->n, x->c});
  if (!x->s16) m->t[in].zp = x->zin == MX_ZP_RANDOM ? range(&r, -127, 126) : x->zin;
  const int oc = x->op == MX_DW ? x->c * x->oc : x->oc;
  int wt;
  if (x->op == MX_CONV) wt = weights(m, &r, type, 4, (int32_t[]){oc, x->kh, x->kw, x->c}, 0, x->pc);
  else if (x->op == MX_DW) wt = weights(m, &r, type, 4, (int32_t[]){1, x->kh, x->kw, oc}, 3, x->pc);
  else wt = weights(m, &r, type, 2, (int32_t[]){oc, x->c}, 0, x->pc);
  if (x->qmod && x->pc) m->t[wt].ch_scales[0] *= x->qmod == MX_Q_HUGE ? 1e4f : x->s16 ? 3e-3f : 3e-4f;
  const int b = bias(m, &r, in, wt, oc, x->s16 && !x->b32);
  const int y = conv ? like(m, in, 4, (int32_t[]){x->n, oh, ow, oc}) : like(m, in, 2, (int32_t[]){x->n, oc});
  dot_out_quant(m, &r, in, wt, y, x->op == MX_CONV ? x->kh * x->kw * x->c : x->op == MX_DW ? x->kh * x->kw : x->c);
  if (!x->s16) m->t[y].zp = x->zout == MX_ZP_RANDOM ? range(&r, -127, 126) : x->zout;
  FbObj *o = fbw_table();
  Op *op;
  if (x->op == MX_FC) {
    fbw_u8(o, 0, (uint8_t)x->act);
    op = add_op(m, OP_FC, OT_FC, o);
  } else if (x->op == MX_CONV) {
    fbw_u8(o, 0, (uint8_t)(x->same ? PAD_SAME : PAD_VALID));
    fbw_i32(o, 1, x->sw);
    fbw_i32(o, 2, x->sh);
    fbw_u8(o, 3, (uint8_t)x->act);
    fbw_i32(o, 4, x->dw);
    fbw_i32(o, 5, x->dh);
    op = add_op(m, OP_CONV, OT_CONV, o);
  } else {
    fbw_u8(o, 0, (uint8_t)(x->same ? PAD_SAME : PAD_VALID));
    fbw_i32(o, 1, x->sw);
    fbw_i32(o, 2, x->sh);
    fbw_i32(o, 3, x->oc);
    fbw_u8(o, 4, (uint8_t)x->act);
    fbw_i32(o, 5, x->dw);
    fbw_i32(o, 6, x->dh);
    op = add_op(m, OP_DWCONV, OT_DWCONV, o);
  }
  op->in[0] = in, op->in[1] = wt, op->in[2] = b, op->nin = 3, op->out[0] = y, op->nout = 1;
  mark_output(m, y);
  return true;
}

static int cmd_matrix(int argc, char **argv) {
  if (argc < 6) return 2;
  const uint64_t seed = strtoull(argv[2], NULL, 0);
  const char *dir = argv[3], *set = argv[4];
  const int part = atoi(argv[5]), per = argc > 6 ? atoi(argv[6]) : 48;
  if (part < 0 || per < 1 || per > MAX_FILE_INPUTS || (strcmp(set, "full") && strcmp(set, "quick"))) return 2;
  MxList full = {0}, quick = {0};
  const int regress = mx_full(&full);
  for (int i = 0; i < full.n; i++)
    if (i < regress || i % 6 == 0) mx_push(&quick, full.v[i]);
  const MxList *l = !strcmp(set, "full") ? &full : &quick;
  Model *m = xmalloc(sizeof *m);
  int made = 0;
  char path[4096], desc[256];
  snprintf(path, sizeof path, "%s", dir);
  mkdir(path, 0777);
  snprintf(path, sizeof path, "%s/layers.txt", dir);
  FILE *f = fopen(path, "w");
  if (!f) return 2;
  for (int i = part * per; i < l->n && i < (part + 1) * per; i++) {
    /* the layer's values from its index in `full`, so both sets give a layer the same bytes */
    const int g = l->v[i].idx;
    if (!mx_emit(m, &l->v[i], seed, g)) continue;
    mx_describe(&l->v[i], desc, sizeof desc);
    fprintf(f, "%d %s\n", g, desc);
    made++;
  }
  fclose(f);
  printf("layers %d total %d\n", made, l->n);
  free(full.v), free(quick.v);
  if (made == 0) return 0;
  write_model(m, dir);
  /* outputs.txt with each layer's parameters (fuzz_diff_gen compare reads its first two words) */
  snprintf(path, sizeof path, "%s/outputs.txt", dir);
  FILE *o = fopen(path, "w");
  char lpath[4096];
  snprintf(lpath, sizeof lpath, "%s/layers.txt", dir);
  FILE *li = fopen(lpath, "r");
  if (!o || !li) return 2;
  char line[512];
  while (fgets(line, sizeof line, li)) {
    int g;
    char rest[480];
    if (sscanf(line, "%d %479[^\n]", &g, rest) == 2) fprintf(o, "%d exact %s\n", g, rest);
  }
  fclose(li);
  fclose(o);
  return 0;
}

/* ---- ties: one-operator requantisation sweeps (issue 29) ------------------------ */

/* fuzz_diff_gen ties SEED BATCH GRAPHS OUTDIR [--family int8|int16|binary|more|dot|dot16]
 * [--only J] [--skip J,...] [--edges]: GRAPHS independent one-operator graphs, each a table or
 * requantising operator (int8: every one of the 256 input values, shuffled; int16: 256
 * inputs, half of them the ones whose rescaled value lies nearest a .5 tie; binary: int8
 * ADD / SUB / MUL / SQUARED_DIFFERENCE on all 256 values against 256 random partners;
 * more: their int16 forms, means, sums and average pools of 3, 4, 9 and 16 values, float
 * QUANTIZE of values on ties; dot,
 * dot16: FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D of one input channel), with scales drawn
 * three ways (tie_mode): random; "near": the output scale rounded from d * s / (k + 0.5),
 * so that some input sits within float precision of a tie, where a double quotient and a
 * float one can round apart; "exact": s_in = odd * 2^-p and s_out = 2^-q, so that rescaled
 * inputs land exactly on k + 0.5. --edges draws scales over 100x wider ranges and factors
 * 16x further out (shifts near their limits, saturation). Files and outputs.txt as `gen`
 * writes them. */

enum { TIES_INT8, TIES_INT16, TIES_BINARY, TIES_MORE, TIES_DOT, TIES_DOT16 };
enum { TIE_RANDOM, TIE_NEAR, TIE_EXACT };

/* odd * 2^-p for an odd mantissa in [1, 255], about `around` in magnitude. */
static float ties_dyadic(Rng *r, double around) {
  const int odd = 2 * range(r, 0, 127) + 1;
  const int p = (int)floor(log2((double)odd / around) + 0.5);
  return (float)ldexp((double)odd, -p);
}

/* The scale of the input (or of a binary operand) for the mode; --edges: 100x wider. */
static float ties_in_scale(const Model *m, Rng *r, int type, int mode) {
  const double wide = m->edges ? 10.0 : 1.0;
  const double lo = (type == T_I8 ? 0.004 : 3e-5) / wide, hi = (type == T_I8 ? 0.2 : 2e-3) * wide;
  const double s = (double)log_uniform(r, lo, hi);
  return mode == TIE_EXACT ? ties_dyadic(r, s) : (float)s;
}

/* An output scale making num / out_scale a factor in [lo, hi]: random, or (near) rounded
 * from d * num / (k + 0.5) for an input offset d = x - in_zp (positive 3 times in 4),
 * k chosen so that out_zp + k + 0.5 is inside the output's range (the tie is not clamped
 * away), and moved by a few ulps to where d times the double quotient num / s, d times
 * the float one and (num_alt > 0) d times num_alt / s, num_alt another construction of the
 * numerator (a float product where num is the double one), do not all lie on one side of
 * the tie, when such a neighbour exists; or (exact) a power of two. */
static float ties_out_scale(const Model *m, Rng *r, double num, double num_alt, int mode, double lo, double hi,
                            int32_t in_zp, int32_t out_zp, int out_type) {
  if (m->edges) lo /= 16.0, hi *= 16.0; /* --edges: factors 16x further out */
  const double q_lo = out_type == T_I8 ? -128 : -32768, q_hi = out_type == T_I8 ? 127 : 32767;
  const double target = (double)log_uniform(r, lo, hi);
  if (mode == TIE_EXACT) return (float)ldexp(1.0, (int)floor(log2(num / target) + 0.5));
  if (mode == TIE_NEAR) {
    for (int attempt = 0; attempt < 64; attempt++) {
      const int x = in_zp < 127 && chance(r, 75) ? range(r, in_zp + 1, 127) : range(r, -128, 127);
      const int d = x - in_zp;
      if (d == 0) continue;
      const double k = floor((double)d * target), tie = k + 0.5;
      if (out_zp + k < q_lo || out_zp + k + 1 > q_hi) continue;
      const float s = (float)((double)d * num / tie);
      if (!(s > 0.0f) || num / (double)s < lo * 0.5 || num / (double)s > hi * 2.0) continue;
      float up = s, down = s;
      for (int step = 0; step < 32; step++) {
        const float c = step % 2 ? (up = nextafterf(up, INFINITY)) : (down = nextafterf(down, 0.0f));
        const double by_double = (double)d * (num / (double)c) - tie;
        const double by_float = (double)d * (double)((float)num / c) - tie;
        const double by_alt = num_alt > 0.0 ? (double)d * (num_alt / (double)c) - tie : by_double;
        if ((by_double < 0.0) != (by_float < 0.0) || (by_double < 0.0) != (by_alt < 0.0)) return c;
      }
      return s;
    }
  }
  return (float)(num / target);
}

/* The model input: int8 all 256 values in random order. */
static int ties_input8(Model *m, Rng *r, int rank, const int32_t *dims, float scale, int32_t zp) {
  int ti = new_tensor(m, T_I8, rank, dims);
  Tensor *t = &m->t[ti];
  t->is_input = true;
  set_quant(m, ti, scale, zp);
  t->bytes = 256;
  int8_t *v = t->data = xmalloc(256);
  for (int i = 0; i < 256; i++) v[i] = (int8_t)(i - 128);
  for (int i = 255; i > 0; i--) {
    const int j = rnd(r, i + 1);
    const int8_t s = v[i];
    v[i] = v[j], v[j] = s;
  }
  if (m->nin >= MAX_IO) exit(2);
  m->inputs[m->nin++] = ti;
  return ti;
}

/* How far x * factor (double or float product) lies from a .5 tie. */
static double ties_distance(int x, double factor) {
  const double v = fabs((double)x * factor), f = v - floor(v);
  const double vf = fabs((double)((float)x * (float)factor)), ff = vf - floor(vf);
  const double a = fabs(f - 0.5), b = fabs(ff - 0.5);
  return a < b ? a : b;
}

/* int16 input: 128 values nearest a tie of x * factor (0: none), the rest random. */
static int ties_input16(Model *m, Rng *r, int rank, const int32_t *dims, float scale, double factor) {
  int ti = new_tensor(m, T_I16, rank, dims);
  Tensor *t = &m->t[ti];
  t->is_input = true;
  set_quant(m, ti, scale, 0);
  t->bytes = 512;
  int16_t *v = t->data = xmalloc(512);
  int best[128], nbest = 0;
  double dist[128];
  for (int x = -32768; factor > 0.0 && x <= 32767; x++) {
    if (x == 0) continue;
    const double d = ties_distance(x, factor);
    if (nbest == 128 && d >= dist[127]) continue;
    int i = nbest < 128 ? nbest++ : 127;
    while (i > 0 && dist[i - 1] > d) best[i] = best[i - 1], dist[i] = dist[i - 1], i--;
    best[i] = x, dist[i] = d;
  }
  for (int i = 0; i < 256; i++) v[i] = (int16_t)(i < nbest ? best[i] : range(r, -32768, 32767));
  for (int i = 255; i > 0; i--) {
    const int j = rnd(r, i + 1);
    const int16_t s = v[i];
    v[i] = v[j], v[j] = s;
  }
  if (m->nin >= MAX_IO) exit(2);
  m->inputs[m->nin++] = ti;
  return ti;
}

static int ties_axis(Model *m, int code, int x, int y, int axis) {
  const int ax = const_i32_vec(m, &axis, 1);
  FbObj *o = fbw_table();
  fbw_u8(o, 0, 1); /* keep_dims */
  return binary_op(m, code, OT_REDUCER, o, x, ax, y);
}

static int ties_pool(Model *m, int x, int y, int kh, int kw) {
  FbObj *o = fbw_table();
  fbw_u8(o, 0, PAD_VALID);
  fbw_i32(o, 1, kw);
  fbw_i32(o, 2, kh);
  fbw_i32(o, 3, kw);
  fbw_i32(o, 4, kh);
  fbw_u8(o, 5, ACT_NONE);
  return unary_op(m, OP_AVG_POOL, OT_POOL, o, x, y);
}

/* One int8 or int16 one-input operator on the tie inputs; returns its output. */
static int ties_unary(Model *m, Rng *r, int type) {
  enum { RELU, RELU6, LEAKY, PRELU, HSWISH, ELU, LOGISTIC, TANH, ABS, REQ8, REQ16, RSQRT, MEAN1, MEAN2,
         SUM1, SUM2, POOL2, POOL4, SOFTMAX, LOG_SOFTMAX, BILINEAR, NKINDS };
  static const unsigned i16_ok = 1u << RELU | 1u << LEAKY | 1u << ABS | 1u << REQ8 | 1u << REQ16 | 1u << MEAN1 |
                                 1u << MEAN2 | 1u << SUM1 | 1u << SUM2 | 1u << POOL2 | 1u << POOL4 |
                                 1u << LOGISTIC | 1u << TANH | 1u << SOFTMAX;
  int kind;
  do kind = rnd(r, NKINDS);
  while (type == T_I16 && !(i16_ok & (1u << kind)));
  const int mode = rnd(r, 3);
  const bool i8 = type == T_I8;
  float s_in = ties_in_scale(m, r, type, mode);
  int32_t zp_in = i8 ? range(r, -128, 127) : 0;
  const int32_t out_zp = i8 ? range(r, -128, 127) : 0;
  float alpha = mode == TIE_EXACT ? (float)ldexp(1.0, -range(r, 1, 4)) : (float)uniform(r, 0.01, 0.9);
  double num = s_in; /* the factor whose ties the input values should hit */
  double lo = 1.0 / 64, hi = 4.0;
  int32_t dims[4] = {1, 16, 16, 1};
  int out_type = type;
  if (kind == RELU6 && mode != TIE_RANDOM) s_in = (float)(6.0 / (floor(6.0 / s_in) + 0.5)); /* 6 / s on a tie */
  if (kind == LEAKY && chance(r, 50)) num = (double)s_in * alpha;
  if (kind == RSQRT) zp_in = -128;
  if (kind == MEAN2 || kind == SUM2) dims[2] = 8, dims[3] = 2;
  if (kind == REQ16 && i8) out_type = T_I16, lo = 64, hi = 512;
  if (kind == REQ8 && !i8) out_type = T_I8, lo = 1.0 / 512, hi = 1.0 / 64;
  if (kind == SUM1 || kind == SUM2) lo = 0.25, hi = 2.0;
  float s_out = ties_out_scale(m, r, num, 0.0, mode, lo, hi, zp_in, out_type == T_I8 ? out_zp : 0, out_type);
  if (kind == HSWISH) s_out = s_in * (float)uniform(r, 0.5, 2.0);
  if (kind == RELU6 || kind == POOL2 || kind == POOL4 || kind == BILINEAR || kind == MEAN1) s_out = s_in;
  if (kind == MEAN1 && !i8) s_out = ties_out_scale(m, r, num, 0.0, mode, lo, hi, 0, 0, T_I16);
  const int x = i8 ? ties_input8(m, r, 4, dims, s_in, zp_in)
                   : ties_input16(m, r, 4, dims, s_in, kind == LOGISTIC || kind == TANH || kind == SOFTMAX ? 0.0 : num / s_out);
  int y;
  if (kind == POOL2 || kind == POOL4) {
    const int32_t yd[4] = {1, 8, kind == POOL2 ? 16 : 8, 1}; /* 2x1 or 2x2 windows, stride = window */
    y = new_tensor(m, type, 4, yd);
  } else if (kind == MEAN1 || kind == MEAN2 || kind == SUM1 || kind == SUM2) {
    const int32_t yd[4] = {1, 16, dims[2], 1};
    y = new_tensor(m, type, 4, yd);
  } else if (kind == BILINEAR) {
    const int32_t yd[4] = {1, 32, 24, 1};
    y = new_tensor(m, type, 4, yd);
  } else y = new_tensor(m, out_type, 4, dims);
  set_quant(m, y, s_out, out_type == T_I8 ? out_zp : 0);
  if (kind == MEAN1 && i8 && chance(r, 50)) m->t[y].zp = zp_in;
  if (kind == RELU6 || kind == POOL2 || kind == POOL4 || kind == BILINEAR) m->t[y].zp = zp_in;
  if (kind == LOGISTIC) set_quant(m, y, i8 ? 1.0f / 256 : 1.0f / 32768, i8 ? -128 : 0);
  if (kind == TANH) set_quant(m, y, i8 ? 1.0f / 128 : 1.0f / 32768, 0);
  if (kind == SOFTMAX) set_quant(m, y, i8 ? 1.0f / 256 : 1.0f / 32768, i8 ? -128 : 0);
  if (kind == LOG_SOFTMAX) set_quant(m, y, 16.0f / 256, 127);
  switch (kind) {
    case RELU: return unary_op(m, OP_RELU, OT_NONE, NULL, x, y);
    case RELU6: return unary_op(m, OP_RELU6, OT_NONE, NULL, x, y);
    case LEAKY: {
      FbObj *o = fbw_table();
      fbw_f32(o, 0, alpha);
      return unary_op(m, OP_LEAKY_RELU, OT_LEAKY_RELU, o, x, y);
    }
    case PRELU: {
      const int32_t ad[4] = {1, 1, 1, 1};
      const int8_t av = (int8_t)range(r, -128, 127);
      const int a = const_tensor(m, T_I8, 4, ad, &av);
      set_quant(m, a, mode == TIE_EXACT ? ties_dyadic(r, 0.004) : log_uniform(r, 0.001, 0.01), range(r, -20, 20));
      return binary_op(m, OP_PRELU, OT_NONE, NULL, x, a, y);
    }
    case HSWISH: return unary_op(m, OP_HARD_SWISH, OT_NONE, NULL, x, y);
    case ELU: return unary_op(m, OP_ELU, OT_NONE, NULL, x, y);
    case LOGISTIC: return unary_op(m, OP_LOGISTIC, OT_NONE, NULL, x, y);
    case TANH: return unary_op(m, OP_TANH, OT_NONE, NULL, x, y);
    case ABS: return unary_op(m, OP_ABS, OT_NONE, NULL, x, y);
    case REQ8: case REQ16: return unary_op(m, OP_QUANTIZE, OT_NONE, NULL, x, y);
    case RSQRT: return unary_op(m, OP_RSQRT, OT_NONE, NULL, x, y);
    case MEAN1: case MEAN2: return ties_axis(m, OP_MEAN, x, y, 3);
    case SUM1: case SUM2: return ties_axis(m, OP_SUM, x, y, 3);
    case POOL2: return ties_pool(m, x, y, 2, 1);
    case POOL4: return ties_pool(m, x, y, 2, 2);
    case SOFTMAX: {
      FbObj *o = fbw_table();
      fbw_f32(o, 0, chance(r, 50) ? 1.0f : (float)uniform(r, 0.3, 2.0));
      return unary_op(m, OP_SOFTMAX, OT_SOFTMAX, o, x, y);
    }
    case LOG_SOFTMAX: return unary_op(m, OP_LOG_SOFTMAX, OT_LOG_SOFTMAX, fbw_table(), x, y);
    default: {
      const int32_t size[2] = {32, 24};
      const int s = const_i32_vec(m, size, 2);
      FbObj *o = fbw_table();
      const bool align = chance(r, 30), half = !align && chance(r, 50);
      fbw_u8(o, 2, align);
      fbw_u8(o, 3, half);
      return binary_op(m, OP_RESIZE_BILINEAR, OT_RESIZE_BILINEAR, o, x, s, y);
    }
  }
}

/* int8 ADD / SUB / MUL / SQUARED_DIFFERENCE: all 256 values against 256 random partners. */
static int ties_binary(Model *m, Rng *r) {
  static const int codes[] = {OP_ADD, OP_SUB, OP_MUL, OP_SQUARED_DIFF};
  const int code = codes[rnd(r, 4)], mode = rnd(r, 3);
  const int32_t dims[4] = {1, 16, 16, 1};
  const float sa = ties_in_scale(m, r, T_I8, mode);
  const float sb = chance(r, 25) ? sa : ties_in_scale(m, r, T_I8, mode);
  const int a = ties_input8(m, r, 4, dims, sa, range(r, -128, 127));
  const int b = ties_input8(m, r, 4, dims, sb, range(r, -128, 127));
  const double mx = sa > sb ? sa : sb;
  double num = mx, lo = 0.4, hi = 1.25; /* ADD / SUB: out scale 0.8 .. 2.5 x the larger */
  if (code == OP_MUL) num = (double)sa * sb, lo = 1.0 / 256, hi = 1.0 / 32;
  if (code == OP_SQUARED_DIFF) num = mx * mx, lo = 1.0 / 512, hi = 1.0 / 64;
  const int y = new_tensor(m, T_I8, 4, dims);
  const int32_t out_zp = code == OP_SQUARED_DIFF ? -128 : range(r, -128, 127);
  set_quant(m, y, ties_out_scale(m, r, num, 0.0, mode, lo, hi, 0, out_zp, T_I8), out_zp);
  static const int acts[] = {ACT_NONE, ACT_NONE, ACT_RELU, ACT_RELU6, ACT_RELU_N1};
  const int act = acts[rnd(r, 5)];
  switch (code) {
    case OP_ADD: return binary_op(m, OP_ADD, OT_ADD, act_opts(act), a, b, y);
    case OP_SUB: return binary_op(m, OP_SUB, OT_SUB, act_opts(act), a, b, y);
    case OP_MUL: return binary_op(m, OP_MUL, OT_MUL, act_opts(act), a, b, y);
    default: return binary_op(m, OP_SQUARED_DIFF, OT_NONE, NULL, a, b, y);
  }
}

/* int16 inputs of n values: 128 nearest a tie of x * factor, the rest random (ties_input16
 * with another count). */
static int ties_input16_n(Model *m, Rng *r, int rank, const int32_t *dims, float scale, double factor) {
  const int ti = ties_input16(m, r, 4, (const int32_t[4]){1, 16, 16, 1}, scale, factor);
  Tensor *t = &m->t[ti];
  t->rank = rank;
  memcpy(t->dims, dims, sizeof(int32_t) * (size_t)rank);
  return ti;
}

/* "more": int16 ADD / SUB / MUL / SQUARED_DIFFERENCE (inputs near ties of their rescale);
 * int8 and int16 MEAN and SUM over 4 values and over H x W, AVERAGE_POOL_2D of 3 and of
 * 3 x 3; float32 QUANTIZE to int8 / int16 of (k + 0.5) * s and its neighbours; int8
 * comparisons (scales a power of two apart for the exact draw), L2_NORMALIZATION over 4
 * values, int16 PRELU, int8 -> int16 SOFTMAX. (No int8 DIV: the reference aborts, a RoundingDivideByPOT exponent above 31,
 * whenever |x - zp| of the dividend is small, so all 256 values cannot be swept.) */
static int ties_more(Model *m, Rng *r) {
  enum { ADD16, SUB16, MUL16, SQDIFF16, MEAN4, SUM4, MEANHW, POOL3, POOL9, QUANT_F32, COMPARE8, L2NORM8, PRELU16,
         SOFTMAX8_16, NKINDS };
  const int kind = rnd(r, NKINDS), mode = rnd(r, 3);
  const int type = kind <= SQDIFF16 ? T_I16 : chance(r, 50) ? T_I8 : T_I16;
  const bool i8 = type == T_I8;
  const int32_t flat[4] = {1, 16, 16, 1};
  if (kind == QUANT_F32) { /* float32 -> int8 / int16: inputs (k + 0.5) * s and their neighbours */
    const int to = chance(r, 60) ? T_I8 : T_I16;
    const float s = ties_in_scale(m, r, to, mode);
    const int32_t zp = to == T_I8 ? range(r, -128, 127) : 0;
    const int x = new_tensor(m, T_F32, 4, flat);
    Tensor *t = &m->t[x];
    t->is_input = true;
    t->bytes = 1024;
    float *v = t->data = xmalloc(1024);
    const int kmax = to == T_I8 ? 140 : 33000;
    for (int i = 0; i < 256; i++) {
      const float tie = (float)(range(r, -kmax, kmax) + 0.5) * s;
      v[i] = i % 4 == 1 ? nextafterf(tie, INFINITY) : i % 4 == 2 ? nextafterf(tie, -INFINITY) : tie;
    }
    if (m->nin >= MAX_IO) exit(2);
    m->inputs[m->nin++] = x;
    const int y = new_tensor(m, to, 4, flat);
    set_quant(m, y, s, zp);
    return unary_op(m, OP_QUANTIZE, OT_NONE, NULL, x, y);
  }
  if (kind == COMPARE8) { /* both sides rescaled (left shift 8): equal after rescale on dyadic ratios */
    float sa = ties_in_scale(m, r, T_I8, mode);
    float sb = mode == TIE_EXACT ? (float)ldexp(sa, range(r, -2, 2)) : ties_in_scale(m, r, T_I8, mode);
    while (sa >= 0.5f || sb >= 0.5f) sa *= 0.5f, sb *= 0.5f; /* the reference rescales by scales below 1 */
    const int a = ties_input8(m, r, 4, flat, sa, range(r, -128, 127));
    const int b = ties_input8(m, r, 4, flat, sb, range(r, -128, 127));
    return comparison(m, r, a, b);
  }
  if (kind == L2NORM8) { /* groups of 4 values */
    const int32_t d[2] = {64, 4};
    const int x = ties_input8(m, r, 2, d, ties_in_scale(m, r, T_I8, mode), range(r, -128, 127));
    const int y = new_tensor(m, T_I8, 2, d);
    set_quant(m, y, 1.0f / 128, 0);
    return unary_op(m, OP_L2_NORM, OT_L2_NORM, act_opts(ACT_NONE), x, y);
  }
  if (kind == PRELU16) {
    const float s_in = ties_in_scale(m, r, T_I16, mode);
    const float s_alpha = mode == TIE_EXACT ? ties_dyadic(r, 0.004) : log_uniform(r, 0.001, 0.01);
    const int8_t av = (int8_t)range(r, -128, 127);
    const int32_t a_zp = range(r, -20, 20);
    const double num = (double)s_in * s_alpha * fabs((double)(av - a_zp) + 0.0);
    const float s_out = ties_out_scale(m, r, s_in, 0.0, mode, 1.0 / 4, 2.0, 0, 0, T_I16);
    const int x = ties_input16(m, r, 4, flat, s_in, chance(r, 50) || num == 0.0 ? s_in / s_out : num / s_out);
    const int32_t ad[4] = {1, 1, 1, 1};
    const int a = const_tensor(m, T_I8, 4, ad, &av);
    set_quant(m, a, s_alpha, a_zp);
    const int y = new_tensor(m, T_I16, 4, flat);
    set_quant(m, y, s_out, 0);
    return binary_op(m, OP_PRELU, OT_NONE, NULL, x, a, y);
  }
  if (kind == SOFTMAX8_16) {
    const int32_t d[2] = {16, 16};
    const int x = ties_input8(m, r, 2, d, ties_in_scale(m, r, T_I8, mode), range(r, -128, 127));
    const int y = new_tensor(m, T_I16, 2, d);
    set_quant(m, y, 1.0f / 65536, -32768);
    FbObj *o = fbw_table();
    fbw_f32(o, 0, chance(r, 50) ? 1.0f : (float)uniform(r, 0.3, 2.0));
    return unary_op(m, OP_SOFTMAX, OT_SOFTMAX, o, x, y);
  }
  if (kind <= SQDIFF16) {
    static const int codes[] = {OP_ADD, OP_SUB, OP_MUL, OP_SQUARED_DIFF};
    const int code = codes[kind - ADD16];
    const float sa = ties_in_scale(m, r, T_I16, mode), sb = chance(r, 25) ? sa : ties_in_scale(m, r, T_I16, mode);
    const double mx = sa > sb ? sa : sb;
    double num = mx, lo = 0.4, hi = 1.25;
    if (code == OP_MUL) num = (double)sa * sb, lo = 1.0 / 32768, hi = 1.0 / 4096;
    if (code == OP_SQUARED_DIFF) num = mx * mx, lo = 1.0 / 65536, hi = 1.0 / 8192;
    const float s_out = ties_out_scale(m, r, num, 0.0, mode, lo, hi, 0, 0, T_I16);
    const int a = ties_input16(m, r, 4, flat, sa, code == OP_MUL || code == OP_SQUARED_DIFF ? 0.0 : sa / s_out);
    const int b = ties_input16(m, r, 4, flat, sb, code == OP_MUL || code == OP_SQUARED_DIFF ? 0.0 : sb / s_out);
    const int y = new_tensor(m, T_I16, 4, flat);
    set_quant(m, y, s_out, 0);
    const int act = chance(r, 70) ? ACT_NONE : ACT_RELU;
    if (code == OP_SQUARED_DIFF) return binary_op(m, code, OT_NONE, NULL, a, b, y);
    return binary_op(m, code, code == OP_ADD ? OT_ADD : code == OP_SUB ? OT_SUB : OT_MUL, act_opts(act), a, b, y);
  }
  const float s_in = ties_in_scale(m, r, type, mode);
  const int32_t zp_in = i8 ? range(r, -128, 127) : 0, out_zp = i8 ? range(r, -128, 127) : 0;
  if (kind == POOL3 || kind == POOL9) {
    const int x = i8 ? ties_input8(m, r, 4, flat, s_in, zp_in) : ties_input16(m, r, 4, flat, s_in, 0.0);
    const int32_t yd[4] = {1, 5, kind == POOL3 ? 16 : 5, 1};
    const int y = new_tensor(m, type, 4, yd);
    set_quant(m, y, s_in, zp_in);
    return ties_pool(m, x, y, 3, kind == POOL3 ? 1 : 3);
  }
  const int32_t d4[4] = {1, 16, 4, 4}, dhw[4] = {1, 4, 4, 16};
  const int32_t *dims = kind == MEANHW ? dhw : d4;
  const double lo = kind == SUM4 ? 0.25 : 1.0 / 64, hi = kind == SUM4 ? 1.0 : 4.0;
  const float s_out = ties_out_scale(m, r, s_in, 0.0, mode, lo, hi, zp_in, out_zp, type);
  const int x = i8 ? ties_input8(m, r, 4, dims, s_in, zp_in) : ties_input16_n(m, r, 4, dims, s_in, 0.0);
  const int32_t yd4[4] = {1, 16, 4, 1}, ydhw[4] = {1, 1, 1, 16};
  const int y = new_tensor(m, type, 4, kind == MEANHW ? ydhw : yd4);
  set_quant(m, y, s_out, out_zp);
  if (kind == MEANHW && chance(r, 30)) set_quant(m, y, s_in, zp_in); /* TFLite's integer spatial mean */
  if (kind == MEANHW) {
    const int32_t axes[2] = {1, 2};
    const int ax = const_i32_vec(m, axes, 2);
    FbObj *o = fbw_table();
    fbw_u8(o, 0, 1);
    return binary_op(m, OP_MEAN, OT_REDUCER, o, x, ax, y);
  }
  return ties_axis(m, kind == SUM4 ? OP_SUM : OP_MEAN, x, y, 3);
}

/* "dot" / "dot16": FULLY_CONNECTED, CONV_2D 1x1 and DEPTHWISE_CONV_2D 1x1 of one input
 * channel on the tie inputs (int8: all 256 values; int16: near the ties of the first output
 * channel), 4 output channels, per-tensor or per-channel weights, the first channel's
 * weight w0 and no bias, so that the output scale puts (x - zp) * w0 * s_in * s_w / s_out on
 * ties (near: the double and the float product s_in * s_w as the alternatives); some with a
 * fused RELU6 or RELU_N1_TO_1, half of those with the bound 6 / s_out (1 / s_out) on a tie. */
static int ties_dot(Model *m, Rng *r, int type) {
  static const int codes[] = {OP_FC, OP_CONV, OP_DWCONV};
  const int code = codes[rnd(r, 3)], mode = rnd(r, 3);
  const bool i8 = type == T_I8, per_channel = chance(r, 50);
  const float s_in = ties_in_scale(m, r, type, mode);
  const int32_t zp_in = i8 ? range(r, -128, 127) : 0, out_zp = i8 ? range(r, -128, 127) : 0;
  const int32_t fc_w[2] = {4, 1}, conv_w[4] = {4, 1, 1, 1}, dw_w[4] = {1, 1, 1, 4};
  const int w = code == OP_FC ? weights(m, r, T_I8, 2, fc_w, 0, per_channel)
                              : weights(m, r, T_I8, 4, code == OP_CONV ? conv_w : dw_w, code == OP_CONV ? 0 : 3,
                                        per_channel);
  Tensor *tw = &m->t[w];
  int8_t *wv = tw->data;
  if (wv[0] == 0) wv[0] = 1;
  if (mode == TIE_EXACT)
    for (int c = 0; c < tw->nch; c++) tw->ch_scales[c] = ties_dyadic(r, (double)tw->ch_scales[c]);
  tw->scale = tw->ch_scales[0];
  const double w0 = fabs((double)wv[0]);
  const double num = (double)s_in * (double)tw->scale * w0, num_alt = (double)(s_in * tw->scale) * w0;
  float s_out = ties_out_scale(m, r, num, num_alt, mode, 1.0 / 64, 2.0, zp_in, out_zp, type);
  /* a fused RELU6 / RELU_N1_TO_1 whose bound zp + roundf(6 / s_out) (or 1 / s_out) is near a tie */
  const int act = chance(r, 70) ? ACT_NONE : chance(r, 50) ? ACT_RELU6 : ACT_RELU_N1;
  if (act != ACT_NONE && chance(r, 50)) {
    const double bound = act == ACT_RELU6 ? 6.0 : 1.0, steps = floor(bound / s_out);
    if (steps >= 1.0 && steps < (i8 ? 120 : 30000)) s_out = (float)(bound / (steps + 0.5));
  }
  const int32_t in_dims[4] = {1, 16, 16, 1}, fc_in[2] = {256, 1};
  const int x = i8 ? ties_input8(m, r, code == OP_FC ? 2 : 4, code == OP_FC ? fc_in : in_dims, s_in, zp_in)
                   : ties_input16_n(m, r, code == OP_FC ? 2 : 4, code == OP_FC ? fc_in : in_dims, s_in, num / s_out);
  const int b = bias(m, r, x, w, 4, !i8);
  if (i8) ((int32_t *)m->t[b].data)[0] = 0;
  else ((int64_t *)m->t[b].data)[0] = 0;
  const int32_t fc_out[2] = {256, 4}, conv_out[4] = {1, 16, 16, 4};
  const int y = new_tensor(m, type, code == OP_FC ? 2 : 4, code == OP_FC ? fc_out : conv_out);
  set_quant(m, y, s_out, out_zp);
  FbObj *o = fbw_table();
  if (code == OP_FC) {
    fbw_u8(o, 0, (uint8_t)act);
  } else {
    fbw_u8(o, 0, PAD_VALID);
    fbw_i32(o, 1, 1);
    fbw_i32(o, 2, 1);
    if (code == OP_DWCONV) fbw_i32(o, 3, 4); /* depth multiplier */
    fbw_u8(o, code == OP_DWCONV ? 4 : 3, (uint8_t)act);
  }
  Op *op = add_op(m, code, code == OP_FC ? OT_FC : code == OP_CONV ? OT_CONV : OT_DWCONV, o);
  op->in[0] = x, op->in[1] = w, op->in[2] = b, op->nin = 3, op->out[0] = y, op->nout = 1;
  return y;
}

static int cmd_ties(int argc, char **argv) {
  if (argc < 6) return 2;
  const uint64_t seed = strtoull(argv[2], NULL, 0), batch = strtoull(argv[3], NULL, 0);
  const int graphs = atoi(argv[4]);
  const char *dir = argv[5], *skip = "";
  int family = TIES_INT8, only = -1;
  Model *m = xmalloc(sizeof *m);
  for (int a = 6; a < argc; a++) {
    if (!strcmp(argv[a], "--family") && a + 1 < argc) {
      a++;
      static const char *const names[] = {"int8", "int16", "binary", "more", "dot", "dot16"};
      family = -1;
      for (int f = 0; f < 6; f++)
        if (!strcmp(argv[a], names[f])) family = f;
      if (family < 0) return 2;
    } else if (!strcmp(argv[a], "--only") && a + 1 < argc) only = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--skip") && a + 1 < argc) skip = argv[++a];
    else if (!strcmp(argv[a], "--edges")) m->edges = true;
  }
  if (graphs < 1 || graphs > (family == TIES_BINARY || family == TIES_MORE ? MAX_FILE_INPUTS / 2 : MAX_FILE_INPUTS))
    return 2;
  int made = 0;
  for (int g = 0; g < graphs; g++) {
    if ((only >= 0 && g != only) || skipped(skip, g)) continue;
    Rng r = {graph_seed(seed ^ 0x7469657300000000ull, batch, (uint64_t)g)};
    m->graph = g;
    int y;
    switch (family) {
      case TIES_BINARY: y = ties_binary(m, &r); break;
      case TIES_MORE: y = ties_more(m, &r); break;
      case TIES_DOT: case TIES_DOT16: y = ties_dot(m, &r, family == TIES_DOT ? T_I8 : T_I16); break;
      default: y = ties_unary(m, &r, family == TIES_INT16 ? T_I16 : T_I8);
    }
    mark_output(m, y);
    made++;
  }
  printf("graphs %d\n", made);
  return write_model(m, dir);
}

/* ---- comparison ----------------------------------------------------------------- */

static unsigned char *slurp(const char *path, long *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *size = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = xmalloc((size_t)*size + 1);
  if (fread(buf, 1, (size_t)*size, f) != (size_t)*size) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  return buf;
}

/* a (tinyaot) matches b (reference), as tests/tools/compare.c: equal values (same-signed
 * infinities: inf - inf is NaN, which the tolerance alone rejected), NaN where the reference
 * is NaN, or both finite within 1e-5*max(1,|b|); an infinity against anything else differs. */
static bool float_close(float a, float b) {
  if (a == b) return true;
  if (isnan(b)) return isnan(a);
  if (!isfinite(a) || !isfinite(b)) return false;
  float tol = 1e-5f * (fabsf(b) > 1.0f ? fabsf(b) : 1.0f);
  return fabsf(a - b) <= tol;
}

/* Returns true when equal; otherwise writes the first difference into why. */
static bool outputs_equal(const char *kind, const unsigned char *ref, long rn, const unsigned char *got, long gn,
                          char *why, size_t why_len) {
  if (rn != gn) {
    snprintf(why, why_len, "size %ld, reference %ld", gn, rn);
    return false;
  }
  if (!strcmp(kind, "float32")) {
    for (long i = 0; i + 4 <= rn; i += 4) {
      float a, b;
      memcpy(&b, ref + i, 4);
      memcpy(&a, got + i, 4);
      if (!float_close(a, b)) {
        snprintf(why, why_len, "element %ld: %.9g, reference %.9g", i / 4, a, b);
        return false;
      }
    }
    return true;
  }
  for (long i = 0; i < rn; i++)
    if (ref[i] != got[i]) {
      snprintf(why, why_len, "byte %ld: %d, reference %d", i, got[i], ref[i]);
      return false;
    }
  return true;
}

static int cmd_compare(int argc, char **argv) {
  if (argc < 5) return 2;
  char path[4096], line[4096];
  snprintf(path, sizeof path, "%s/outputs.txt", argv[2]);
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "fuzz_diff_gen: cannot read %s\n", path);
    return 2;
  }
  int status = 0;
  for (int i = 0; fgets(line, sizeof line, f); i++) {
    int g;
    char kind[16];
    if (sscanf(line, "%d %15s", &g, kind) != 2) continue;
    long rn = 0, gn = 0;
    snprintf(path, sizeof path, "%s/out%d.bin", argv[3], i);
    unsigned char *ref = slurp(path, &rn);
    snprintf(path, sizeof path, "%s/out%d.bin", argv[4], i);
    unsigned char *got = slurp(path, &gn);
    char why[256];
    if (!ref || !got) {
      snprintf(why, sizeof why, "missing %s output", ref ? "tinyaot" : "reference");
      status = 1;
      printf("MISMATCH %d out%d %s\n", g, i, why);
    } else if (!outputs_equal(kind, ref, rn, got, gn, why, sizeof why)) {
      status = 1;
      printf("MISMATCH %d out%d %s\n", g, i, why);
    }
    free(ref);
    free(got);
  }
  fclose(f);
  return status;
}

int main(int argc, char **argv) {
  int rc = 2;
  if (argc >= 2 && !strcmp(argv[1], "gen")) rc = cmd_gen(argc, argv);
  else if (argc >= 2 && !strcmp(argv[1], "compare")) rc = cmd_compare(argc, argv);
  else if (argc >= 2 && !strcmp(argv[1], "conv")) rc = cmd_conv(argc, argv);
  else if (argc >= 2 && !strcmp(argv[1], "dwconv")) rc = cmd_dwconv(argc, argv);
  else if (argc >= 2 && !strcmp(argv[1], "matrix")) rc = cmd_matrix(argc, argv);
  else if (argc >= 2 && !strcmp(argv[1], "ties")) rc = cmd_ties(argc, argv);
  if (rc == 2)
    fprintf(stderr, "usage: fuzz_diff_gen gen SEED BATCH GRAPHS OUTDIR [--only J] [--skip J,...] [--edges] [--chains] [--tiers]\n"
                    "       fuzz_diff_gen compare OUTDIR REF_DIR GOT_DIR\n"
                    "       fuzz_diff_gen conv SEED OUTDIR H W CIN COUT KH KW SH SW SAME ACT PER_CHANNEL\n"
                    "       fuzz_diff_gen dwconv SEED OUTDIR H W CH KH KW SH SW SAME ACT PER_CHANNEL\n"
                    "       fuzz_diff_gen matrix SEED OUTDIR full|quick PART [PER_PART]\n"
                    "       fuzz_diff_gen ties SEED BATCH GRAPHS OUTDIR [--family int8|int16|binary|more|dot|dot16] [--only J] [--skip J,...] [--edges]\n");
  return rc;
}
