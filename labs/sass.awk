# labs/sass.awk: the listing of cuobjdump -sass, read for labs/rules.sh: one line an instruction,
#   ARCH <tab> FUNCTION <tab> OPCODE <tab> INSTRUCTION
# (sm_90, the function's mangled name, the instruction's name with its modifiers, REDG.E.ADD.STRONG.GPU,
# and the instruction as printed, without its predicate's place in OPCODE). With -v blocks=1, every
# line of each function as printed, addresses and encodings included, its spaces squeezed (two compiles
# of one kernel print the same lines; cuobjdump pads the columns to the widest instruction of the file):
#   ARCH <tab> FUNCTION <tab> LINE
# One idiom of ptxas is renamed: HFMA2 Rd, -RZ, RZ, A, B sets Rd's two halves to the constants A and B
# (-0 x 0 + A, B): a move of a constant, which ptxas writes as a half-precision multiply-add. Its OPCODE
# reads MOV, so that a rule on floating-point arithmetic (ch5_mma's) does not take it for one.
/^arch = / { arch = $3; fn = ""; next }
/^[[:space:]]*Function : / { fn = $3; next }
fn == "" { next }
blocks {
    if ($0 ~ /^[[:space:]]+\/\*/) {
        line = $0
        gsub(/[[:space:]]+/, " ", line)
        sub(/^ /, "", line)
        print arch "\t" fn "\t" line
    }
    next
}
# An instruction's line starts with its address, /*0a70*/; its encoding's lines, /* 0x... */, do not.
/^[[:space:]]+\/\*[0-9a-f]+\*\/[[:space:]]/ {
    ins = $0
    sub(/^[[:space:]]+\/\*[0-9a-f]+\*\/[[:space:]]+/, "", ins)
    sub(/[[:space:]]*;.*$/, "", ins)
    rest = ins
    sub(/^@[^[:space:]]+[[:space:]]+/, "", rest)  # the predicate, @P0 or @!PT
    op = rest
    sub(/[[:space:]].*$/, "", op)
    sub(/^[^[:space:]]+[[:space:]]*/, "", rest)   # the operands
    if (op ~ /^HFMA2(\.|$)/ && rest ~ /^[A-Z0-9_]+, -?RZ, -?RZ, /)
        op = "MOV"
    print arch "\t" fn "\t" op "\t" ins
}
