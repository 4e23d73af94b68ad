# tests/tables/small_gpu_run.awk, for tests/tables.sh: README.md's "small_gpu_run", prose, not a table:
# what one run of make small-gpu tested, passed and shrank. From figures/data/:
# small_gpu/EMULATION/results.tsv and the files beside it (tab-separated); with text.awk, not lib.awk.
BEGIN { FS = "\t" }
function program(row) { sub(/ .*/, "", row); sub(/.*\//, "", row); return row }
FNR == 1 { e = FILENAME; sub(/\/[^\/]*$/, "", e); sub(/.*\//, "", e)  # the emulation: its folder's name
           if (!(e in seen)) { seen[e] = 1; emu[++ne] = e } }
FILENAME ~ /calls\.tsv$/ {
    gpu = $2 " (driver " $3 ", " $4 ")"
    if (first_gpu == "") first_gpu = gpu
    else if (gpu != first_gpu) {
        print "tables.sh: small_gpu_run: calls on " first_gpu " and on " gpu ": not one run" > "/dev/stderr"
        bad = 1
    }
    if (from == "" || $1 < from) from = $1
    if ($1 > to) to = $1
    calls++ }
FILENAME ~ /device_query\.log$/ && /^device 0:/ {
    split($0, w, ", "); sms[e] = w[3]
    free[e] = w[4]; sub(/.*\(/, "", free[e]); sub(/ free\)/, " GiB free", free[e])
    l2 = w[5]; sub(/^L2 /, "", l2) }
FILENAME ~ /results\.tsv$/ && $1 ~ /\(2 GiB\)$/ {
    if ($3 ~ /expected/) {
        if ($2 != 1) failed[++nf] = "`" $1 "` (exit " $2 ", 1 expected)"
        else { refused = $1; sub(/ \(2 GiB\)$/, "", refused) }
    }
    else if ($2 != 0) failed[++nf] = "`" $1 "` (" e ", exit " $2 ")"
    else if ($3 != "") two[++n2] = "`" program($1) "` to `" $3 "`"
    next }
FILENAME ~ /results\.tsv$/ && ($1 ~ /^ch[0-9]_/ || $1 ~ /^quick start/) {
    runs[e]++
    if ($2 != 0) failed[++nf] = "`" $1 "` (" e ", exit " $2 ")"
    else if ($3 != "") shrunk[e, ++nshr[e]] = "`" program($1) "` to `" $3 "`"
    next }
FILENAME ~ /results\.tsv$/ {
    if ($2 != 0) failed[++nf] = "`" $1 "` (" e ", exit " $2 ")"
    else if ($1 == "make test") tested[e] = 1
    else if ($1 ~ /^make labs/) labs[e] = 1 }
FILENAME ~ /make_test\.log$/ && /^Files=/ { split($0, w, ", "); tests[e] = w[2]; sub(/Tests=/, "", tests[e]) }
FILENAME ~ /make_test\.log$/ && /^make test: [0-9]+ test\(s\) skipped/ {
    skipped[e] = $0; sub(/^make test: /, "", skipped[e]); sub(/ test\(s\) skipped.*/, "", skipped[e]) }
FILENAME ~ /make_test\.log$/ && /checked again alone/ { again[e]++ }
FILENAME ~ /2gib_/ && /^note: the default .*: using .* instead$/ && example == "" {
    example = $0; needs = $0; sub(/.* needs /, "", needs); sub(/ on the GPU.*/, "", needs)
    example_of = FILENAME; sub(/.*2gib_[a-z0-9]+_[a-z]+_/, "", example_of); sub(/_.*/, "", example_of) }
END {
    if (bad) exit 1
    card["gtx1650"] = "a GTX 1650"; card["t4"] = "a T4"
    split(first_gpu, g, " \\("); gpu_name = g[1]
    for (i = 1; i <= ne; i++) {
        x = emu[i]
        cards[i] = x in card ? sms[x] " with " free[x] " (" card[x] ")" : "the whole GPU (" sms[x] ")"
        if (!tested[x] || !labs[x]) failed[++nf] = "`make test` or the labs not run under " x
        if (tests[x] != tests[emu[1]])
            failed[++nf] = "`make test` ran " tests[x] " tests under " x ", " tests[emu[1]] " under " emu[1]
        if (runs[x] != runs[emu[1]])
            failed[++nf] = runs[x] " default runs under " x ", " runs[emu[1]] " under " emu[1]
        sk[i] = skipped[x] + 0; ag[i] = again[x] + 0
        if (nshr[x] > 0) {
            for (k = 1; k <= nshr[x]; k++) one[k] = shrunk[x, k]
            small[++nsm] = list(one, nshr[x]) (x in card ? " for " card[x] : " on the whole GPU")
        }
    }
    text = "**What was tested.** Smaller cards were emulated on an " gpu_name \
           " with CUDA's Multi-Process Service, which can give a program a share of the SMs and a cap on memory: " \
           list(cards, ne) "."
    if (nf == 0)
        text = text " Under each, `make test` (" tests[emu[1]] " tests; " list(sk, ne) " skipped, each saying why)," \
               " the labs' solutions (`make labs SOLUTIONS=1`), the quick start and every program's default run" \
               " (" runs[emu[1]] " programs) exit 0 with `check: PASS`."
    else
        text = text " Not everything passed: " list(failed, nf) "."
    text = text " MPS does not emulate the architecture: an " gpu_name " held to " sms[emu[1]] \
           " is still an sm_90 with 2048 threads per SM, " l2 " of L2 and HBM bandwidth." \
           " Turing's own limits (64 registers a thread in a block of 1024, 48 KiB of static shared memory)" \
           " are checked by compiling every kernel for sm_75 in `make test`;" \
           " no program has run on a real Turing card here."
    print wrap(text)
    print ""
    d1 = from; sub(/T.*/, "", d1); sub(/.*T/, "", from); sub(/Z$/, "", from); sub(/.*T/, "", to); sub(/Z$/, "", to)
    text = "The figures of this section come from `make small-gpu` on an " first_gpu ", " d1 " from " from " to " to \
           " UTC, committed in `figures/data/small_gpu/`: each emulation's `results.tsv` and every log," \
           " and the table `small_gpu.md`." \
           " It took " calls " calls (each emulation's `calls.tsv` lists them), each running a part:" \
           " a device call here ends at 10 minutes, and `KEEP=1` merges the parts." \
           " Under MPS a GPU fault in one process ends every process on the GPU, so `tests/labs.t` checks again," \
           " alone, each lab check that a CUDA error stopped while four ran at a time" \
           " (eight since, `LABS_PARALLEL`): " list(ag, ne) \
           " of them under the " (ne == 3 ? "three" : ne) " emulations" (nf == 0 ? ", each passing alone." : ".")
    print wrap(text)
    print ""
    # Chapter 2's defaults at the article's size under the emulation of a 4 GiB card: none shrank there.
    for (k = 1; k <= nshr["gtx1650"]; k++) if (shrunk["gtx1650", k] ~ /^`(naive|better|library|warp_shuffle|ladder)`/)
        ch2_shrank = 1
    text = "**What a 4 GB card changes.** Chapter 2 sums the article's 1e9 floats, 4 GB" \
           (needs != "" ? " (" needs " on the GPU for `" example_of "`, with its partial sums)" : "") ":" \
           (ch2_shrank ? " more than the emulated 4 GiB card had free." : \
            " the emulated 4 GiB card, " free["gtx1650"] ", held them, and its defaults ran at 1e9 there;" \
            " a card with less free does not (one that also drives a display).") \
           " There `naive`, `better`, `library`, `warp_shuffle` and `ladder` take the largest size that fits" \
           " and say so in one line"
    text = text (example != "" ? ", as on the 2 GiB card of this run (" list(two, n2) "): `" example "`." : ".")
    if (nsm > 0) {
        text = text " Under the emulations, other defaults shrank: "
        for (i = 1; i <= nsm; i++) text = text small[i] (i < nsm ? "; " : ".")
    }
    text = text " A size you give with `-n` that does not fit ends with exit 1, what it needs, what is free" \
           " and the largest that fits" \
           (refused != "" ? " (`" refused "` on the 2 GiB card)." : ".")
    print wrap(text)
}
