# findings.awk: compute-sanitizer's report in one line per distinct finding, for labs/grade, with the thread,
# the block and the place of the first time it was found, where the tool names them (memcheck does):
#   Invalid __global__ read of size 4 bytes in saxpy (ch1_map.cu:13) [x31]; the first: thread (31,0,0) in
#     block (0,0,0), 4 bytes after the nearest allocation, of 4000 bytes     (one line)
#   shared-memory race in transpose (write at ch1_transpose.cu:15 and read at ch1_transpose.cu:21) [x5]
#   Uninitialized __global__ memory read of size 4 bytes in vectorAdd (memset_error.cu:41) [x48]; the first:
#     thread (16,0,0) in block (0,0,0)     (initcheck: a read of memory nothing wrote; no place to name)
#   Host API memory access error of size 400 bytes (uninitialized, read by cudaMemcpy source)     (initcheck:
#     a CUDA call, not a kernel, read memory nothing wrote)
#   Invalid __global__ read of size 16 bytes in apply_gain (ch3_debug_async.cu:69); the first: thread (0,0,0)
#     in block (0,0,0), at a misaligned address     (memcheck: an address that is not a multiple of the size)
# A finding starts at a line "========= TEXT" (not the tool's banner or summaries, nor its word that the
# program ended badly: labs/grade judges that by the judge's lines, as a run that did not finish); its kernel and
# source lines come from the lines "at KERNEL(...)+0x.. in FILE:LINE" under it. here= is stripped from
# the file names.
function flush() {
    if (what != "") {
        key = what (kernel == "" ? "" : " in " kernel " (" where ")")
        if (!(key in seen)) {
            order[n++] = key
            first[key] = who (who != "" && place != "" ? ", " : "") place
        }
        seen[key]++
    }
    what = ""
}
# The tool's lines that are no finding: its banner, its summaries, its word that the program ended badly.
BEGIN {
    not_a_finding = "^========= (ERROR SUMMARY|([A-Z]+ )?SUMMARY:|COMPUTE-SANITIZER|Program hit|Target application" \
                    "|Saved host backtrace|Maximum number of hazards|Error: process didn't terminate successfully)"
}
/^========= [^ ]/ && $0 !~ not_a_finding {
    flush()
    what = $0
    sub(/^========= /, "", what)
    sub(/^Error: /, "", what)
    host_api = what ~ /^Host API memory access error at /
    if (host_api)  # (initcheck's word on a call: the host's address left out, its size kept)
        sub(/ at host access to 0x[0-9a-fA-F]+/, "", what)
    sub(/ at .*/, "", what)
    sub(/^Race reported between .*/, "shared-memory race", what)
    kernel = host_api ? "" : "?"  # (a call's finding names no kernel)
    where = who = place = ""
}
# initcheck's call that read memory nothing wrote: "Uninitialized access to 0x... on access by cudaMemcpy
# source" ("at 0x..." in older versions). No kernel, no source line: the call is the place.
what != "" && host_api && /^=========  +Uninitialized access (at|to) 0x[0-9a-fA-F]+ on access by / {
    by = $0; sub(/.* on access by /, "", by)
    what = what " (uninitialized, read by " by ")"
}
# memcheck's thread and block, and the address's place: "by thread (31,0,0) in block (0,0,0)", "and is 4 bytes
# after the nearest allocation at 0x7f... of size 4000 bytes" (the addresses left out: they change every run).
what != "" && /^=========  +by thread \(/ {
    who = $0; sub(/^=========  +by /, "", who)
}
# memcheck's word on an access whose address is not a multiple of its size: "Address 0x... is misaligned".
what != "" && /^=========  +Address 0x[0-9a-fA-F]+ is misaligned/ {
    place = "at a misaligned address"
}
what != "" && /^=========  +and is [0-9]+ bytes (after|before) the nearest allocation/ {
    place = $0; sub(/^=========  +and is /, "", place); sub(/ at 0x[0-9a-fA-F]+/, "", place)
    sub(/ of size /, ", of ", place)
}
what != "" && / at .* in .*:[0-9]+/ {
    k = $0; sub(/.* at /, "", k); sub(/\(.*/, "", k); sub(/\+0x.*/, "", k)
    if (kernel == "?")
        kernel = k
    w = $0; sub(/.* in /, "", w); sub(/ .*/, "", w); gsub(here, "", w)
    if ($0 ~ /(Write|Read) access at/) {  # racecheck names the two accesses
        a = $0; sub(/ access at.*/, "", a); sub(/.* /, "", a)
        w = tolower(a) " at " w
    }
    if (index(where, w) == 0)
        where = where (where == "" ? "" : " and ") w
}
END {
    flush()
    for (i = 0; i < n; i++)
        printf "%s%s%s\n", order[i], (seen[order[i]] > 1 ? " [x" seen[order[i]] "]" : ""),
               (first[order[i]] != "" ? "; the first: " first[order[i]] : "")
}
