/* Every supported operator, one line each: X(symbol). The symbol names the
 * `const OpDef op_<symbol>` defined in src/ops/<symbol>.c. Keep sorted. */
X(reshape)
