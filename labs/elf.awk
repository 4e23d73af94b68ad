# labs/elf.awk: the listing of cuobjdump -elf, read for labs/rules.sh: for each cubin (each architecture),
#   bytes <tab> ARCH <tab> N <tab> WHAT     the size of its global-memory sections, .nv.global (zeroed
#                                           variables) and .nv.global.init (initialised ones), and of its
#                                           .nv.constant3 (the __constant__ variables), less the
#                                           strings of printf and assert ($str...: no memory of the file's
#                                           to keep anything in; 16 KiB of them at most, since inline asm
#                                           can name a variable so too), and the largest objects in them,
#                                           " NAME SIZE, NAME SIZE"
#   calls <tab> ARCH <tab> NAME             a function its code calls that no cubin defines (vprintf,
#                                           malloc, __assertfail: the device runtime's)
#   code <tab> ARCH <tab> N                 its number of code sections (.text.FUNCTION): none, and it has
#                                           no machine code to read (a file without kernels)
# The sizes are hexadecimal in the listing (mawk has no strtonum): hex() reads them.
function hex(s,    i, n) {
    n = 0
    s = tolower(s)
    sub(/^0x/, "", s)
    for (i = 1; i <= length(s); i++)
        n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
    return n
}
function flush(    i, j, t, what) {
    if (!elf)  # (an architecture's PTX has a header of its own, and no sections)
        return
    # the three largest objects, by a few passes (there are rarely more than a handful)
    what = ""
    for (j = 1; j <= 3; j++) {
        t = 0
        for (i = 1; i <= objects; i++)
            if (!(i in shown) && (t == 0 || size[i] > size[t]))
                t = i
        if (t == 0)
            break
        shown[t]
        what = what (j > 1 ? "," : "") " " name[t] " " size[t]
    }
    print "bytes\t" arch "\t" bytes - (strings < 16384 ? strings : 16384) "\t" what
    print "code\t" arch "\t" texts + 0
    split("", shown)
    split("", global)
    objects = 0
    bytes = 0
    strings = 0
    texts = 0
    elf = 0
}
/^arch = / { flush(); arch = $3; part = ""; next }
/^Sections:/ { part = "sections"; elf = 1; next }
/^\.section / { part = ($2 == ".symtab") ? "symbols" : ""; next }
NF == 0 { if (part == "sections") part = ""; next }
# Index Offset Size ES Align Type Flags Link Info Name
part == "sections" && $1 ~ /^[0-9a-f]+$/ && $NF ~ /^\.nv\.(global|constant3$)/ {
    bytes += hex($3); global[hex($1)]; next }
part == "sections" && $1 ~ /^[0-9a-f]+$/ && $NF ~ /^\.text\./ { texts++; next }
# The symbols, as cuobjdump 13.3 and later print them: Num Value Size Type Bind Vis Other Ndx Name; as 13.2
# and before do: index value size info other shndx name, the type in info's low four bits (1 an object,
# 2 a function). An undefined symbol's Ndx (shndx) is 0.
part == "symbols" && $1 == "Num" { raw = 0; next }
part == "symbols" && $1 == "index" { raw = 1; next }
part == "symbols" && NF >= 6 {
    type = raw ? hex($4) % 16 : ($4 == "OBJECT" ? 1 : $4 == "FUNC" ? 2 : 0)
    if (type == 1 && (hex($(NF - 1)) in global)) {
        if ($NF ~ /^\$str/) strings += hex($3)
        else { name[++objects] = $NF; size[objects] = hex($3) }
    } else if (type == 2 && hex($(NF - 1)) == 0)
        print "calls\t" arch "\t" $NF
}
END { flush() }
