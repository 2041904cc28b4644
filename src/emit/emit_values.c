#include "emit_values.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../ir/quant.h"

enum { VALUES_PER_LINE = 16 };

/* Decimal digits of a small integer without printf: constant tables are large. */
static void fast_decimal(char *buf, int64_t v) {
  char tmp[24];
  int n = 0;
  uint64_t u = v < 0 ? (uint64_t)(-(v + 1)) + 1u : (uint64_t)v;
  do {
    tmp[n++] = (char)('0' + u % 10u);
    u /= 10u;
  } while (u);
  int k = 0;
  if (v < 0) buf[k++] = '-';
  while (n) buf[k++] = tmp[--n];
  buf[k] = 0;
}

static void int_literal(char *buf, size_t cap, int64_t v) {
  if (v > INT32_MIN && v <= INT32_MAX)
    fast_decimal(buf, v);
  else if (v == INT64_MIN)
    snprintf(buf, cap, "(-9223372036854775807LL - 1)");
  else if (v == INT32_MIN)
    snprintf(buf, cap, "(-2147483647 - 1)");
  else if (v > INT32_MAX || v < INT32_MIN)
    snprintf(buf, cap, "%lldLL", (long long)v);
  else
    snprintf(buf, cap, "%lld", (long long)v);
}

/* Exact C99 hexadecimal float literal, without printf (float weight tables are
 * large): 0x1.<mantissa>p<exponent>f. */
static void hex_float_literal(char *buf, float f) {
  uint32_t bits;
  memcpy(&bits, &f, 4);
  char *p = buf;
  if (bits >> 31) *p++ = '-';
  uint32_t exp = (bits >> 23) & 0xFFu, man = bits & 0x7FFFFFu;
  if (exp == 0 && man == 0) {
    memcpy(p, "0.0f", 5);
    return;
  }
  static const char hex[] = "0123456789abcdef";
  int e = exp ? (int)exp - 127 : -126;
  *p++ = '0';
  *p++ = 'x';
  *p++ = exp ? '1' : '0';
  uint32_t m = man << 1; /* 24 bits: six hex digits */
  if (m) {
    *p++ = '.';
    int digits = 6;
    while ((m & 0xFu) == 0) {
      m >>= 4;
      digits--;
    }
    for (int i = digits - 1; i >= 0; i--) *p++ = hex[(m >> (4 * i)) & 0xFu];
  }
  *p++ = 'p';
  char ebuf[8];
  fast_decimal(ebuf, e);
  for (char *q = ebuf; *q; q++) *p++ = *q;
  *p++ = 'f';
  *p = 0;
}

static void float_literal(char *buf, size_t cap, float f) {
  if (isfinite(f)) {
    hex_float_literal(buf, f);
    return;
  }
  if (isnan(f))
    snprintf(buf, cap, "NAN");
  else if (isinf(f))
    snprintf(buf, cap, f > 0 ? "HUGE_VALF" : "-HUGE_VALF");
  else {
    /* 9 significant digits round-trip any float exactly. */
    snprintf(buf, cap, "%.9gf", (double)f);
    if (!strpbrk(buf, ".eE")) {
      size_t len = strlen(buf);
      snprintf(buf + len - 1, cap - len + 1, ".0f");
    }
  }
}

static void open_list(StrBuf *sb) { sb_append(sb, "{"); }

static void list_item(StrBuf *sb, size_t i, const char *lit) {
  sb_append(sb, i % VALUES_PER_LINE == 0 ? "\n  " : " ");
  sb_append(sb, lit);
  sb_append(sb, ",");
}

static void close_list(StrBuf *sb, size_t n) { sb_append(sb, n ? "\n}" : " 0 }"); }

void emit_i64_list(StrBuf *sb, const int64_t *v, size_t n) {
  char lit[48];
  open_list(sb);
  for (size_t i = 0; i < n; i++) {
    int_literal(lit, sizeof lit, v[i]);
    list_item(sb, i, lit);
  }
  close_list(sb, n);
}

void emit_f32_list(StrBuf *sb, const float *v, size_t n) {
  char lit[48];
  open_list(sb);
  for (size_t i = 0; i < n; i++) {
    float_literal(lit, sizeof lit, v[i]);
    list_item(sb, i, lit);
  }
  close_list(sb, n);
}

/* ---- lengths without formatting: what a counting StrBuf (sb_init_counting) is given,
 * so that measuring a constant table costs a fraction of writing it ---- */

static size_t decimal_len(int64_t v) { /* v > INT64_MIN, as fast_decimal writes it */
  uint64_t u = v < 0 ? (uint64_t)(-v) : (uint64_t)v;
  size_t n = v < 0 ? 2 : 1;
  while (u >= 10u) {
    u /= 10u;
    n++;
  }
  return n;
}

static size_t int_literal_len(int64_t v) {
  if (v > INT32_MIN && v <= INT32_MAX) return decimal_len(v);
  char lit[48];
  int_literal(lit, sizeof lit, v);
  return strlen(lit);
}

/* The float whose IEEE bits are little-endian at p. */
static size_t float_literal_len(const uint8_t *p) {
  const uint32_t bits = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  const size_t sign = bits >> 31;
  const uint32_t exp = (bits >> 23) & 0xFFu, man = bits & 0x7FFFFFu;
  if (exp == 0xFFu) { /* infinities and NaNs */
    float f;
    memcpy(&f, &bits, 4);
    char lit[48];
    float_literal(lit, sizeof lit, f);
    return strlen(lit);
  }
  if (exp == 0 && man == 0) return sign + 4; /* 0.0f */
  size_t n = sign + 3;                       /* 0x1 */
  uint32_t m = man << 1;
  if (m) {
    size_t digits = 6;
    while ((m & 0xFu) == 0) {
      m >>= 4;
      digits--;
    }
    n += 1 + digits;
  }
  return n + 2 + decimal_len(exp ? (int)exp - 127 : -126); /* p<exponent>f */
}

/* The length of emit_le_values' text. */
static size_t le_values_len(const uint8_t *bytes, size_t elems, TensorType type) {
  Tensor view = {0};
  view.data = bytes;
  size_t n = 1 + (elems ? 2 : 4); /* "{" ... "\n}" or " 0 }" */
  n += elems * 2 + 2 * ((elems + VALUES_PER_LINE - 1) / VALUES_PER_LINE); /* separators, commas, "\n  " */
  for (size_t i = 0; i < elems; i++) {
    switch (type) {
      case TT_FLOAT32: n += float_literal_len(bytes + 4 * i); break;
      case TT_INT8: n += decimal_len((int8_t)bytes[i]); break;
      case TT_UINT8: case TT_BOOL: n += decimal_len(bytes[i]); break;
      case TT_INT16: n += decimal_len(const_i16(&view, (int64_t)i)); break;
      case TT_INT32: n += int_literal_len(const_i32(&view, (int64_t)i)); break;
      case TT_INT64: n += int_literal_len(const_i64(&view, (int64_t)i)); break;
      case TT_UINT16: n += decimal_len((uint16_t)const_i16(&view, (int64_t)i)); break;
      case TT_UINT32: n += int_literal_len((uint32_t)const_i32(&view, (int64_t)i)); break;
      default: n += 1; break;
    }
  }
  return n;
}

void emit_le_values(StrBuf *sb, const uint8_t *bytes, size_t elems, TensorType type) {
  if (sb->counting) {
    sb_appendn(sb, NULL, le_values_len(bytes, elems, type));
    return;
  }
  char lit[48];
  char line[VALUES_PER_LINE * 52 + 8]; /* one output line, appended at once */
  size_t len = 0;
  Tensor view = {0};
  view.data = bytes;
  open_list(sb);
  for (size_t i = 0; i < elems; i++) {
    switch (type) {
      case TT_FLOAT32: float_literal(lit, sizeof lit, const_f32(&view, (int64_t)i)); break;
      case TT_INT8: int_literal(lit, sizeof lit, (int8_t)bytes[i]); break;
      case TT_UINT8: case TT_BOOL: int_literal(lit, sizeof lit, bytes[i]); break;
      case TT_INT16: int_literal(lit, sizeof lit, const_i16(&view, (int64_t)i)); break;
      case TT_INT32: int_literal(lit, sizeof lit, const_i32(&view, (int64_t)i)); break;
      case TT_INT64: int_literal(lit, sizeof lit, const_i64(&view, (int64_t)i)); break;
      case TT_UINT16: int_literal(lit, sizeof lit, (uint16_t)const_i16(&view, (int64_t)i)); break;
      case TT_UINT32: int_literal(lit, sizeof lit, (uint32_t)const_i32(&view, (int64_t)i)); break;
      default: snprintf(lit, sizeof lit, "0"); break;
    }
    if (i % VALUES_PER_LINE == 0) {
      sb_appendn(sb, line, len);
      memcpy(line, "\n  ", 3);
      len = 3;
    } else {
      line[len++] = ' ';
    }
    size_t n = strlen(lit);
    memcpy(line + len, lit, n);
    len += n;
    line[len++] = ',';
  }
  sb_appendn(sb, line, len);
  close_list(sb, elems);
}

void emit_bytes(StrBuf *sb, const uint8_t *bytes, size_t n) {
  if (sb->counting) { /* "\n  " or " ", the digits, "," */
    size_t len = 2 * n + 2 * ((n + VALUES_PER_LINE - 1) / VALUES_PER_LINE);
    for (size_t i = 0; i < n; i++) len += decimal_len(bytes[i]);
    sb_appendn(sb, NULL, len);
    return;
  }
  char lit[8];
  for (size_t i = 0; i < n; i++) {
    snprintf(lit, sizeof lit, "%u", bytes[i]);
    list_item(sb, i, lit);
  }
}

void emit_sanitize(char *out, size_t cap, const char *name) {
  size_t len = 0;
  bool underscore = false;
  for (const char *p = name; *p && len + 1 < cap && len < 40; p++) {
    unsigned char c = (unsigned char)*p;
    if (isalnum(c)) {
      out[len++] = (char)tolower(c);
      underscore = false;
    } else if (!underscore && len > 0) {
      out[len++] = '_';
      underscore = true;
    }
  }
  while (len > 0 && out[len - 1] == '_') len--;
  out[len] = 0;
}
