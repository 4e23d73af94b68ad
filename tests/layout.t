#!/bin/sh
# The reading order of CONTRIBUTING.md, kept true: every program opens with a header comment naming its
# file, then its includes and constants, its kernels (and device functions), the CPU reference and host
# helpers, and main last. A file over 150 lines marks those sections with one-line banners, /* ==== ... */,
# the last of them "/* ==== main ==== */". No GPU needed.
. tests/tap.sh
for cu in ch*/*.cu; do
    name=$(basename "$cu")
    head -n 1 "$cu" | grep -q "^/\* $name: "
    ok $? "$cu opens with a header naming it" "first line: $(head -n 1 "$cu")"

    # Line numbers of the last kernel or device function, the first host function, and main.
    last_kernel=$(grep -n -E "^__(global|device)__ " "$cu" | tail -n 1 | cut -d: -f1)
    first_host=$(grep -n -E "^static [a-z][a-z_ ]* \**[a-z_0-9]+\(" "$cu" | head -n 1 | cut -d: -f1)
    main=$(grep -n "^int main(" "$cu" | cut -d: -f1)
    functions_after_main=$(awk -v m="$main" 'NR > m && /^[a-z_].*\(.*\)$/ && !/;$/' "$cu" | wc -l)
    [ -n "$main" ] && [ "$functions_after_main" -eq 0 ] && { [ -z "$last_kernel" ] || [ "$last_kernel" -lt "$main" ]; }
    ok $? "$cu: main comes last" "main at line ${main:-none}, $functions_after_main functions after it"
    [ -z "$last_kernel" ] || [ -z "$first_host" ] || [ "$last_kernel" -lt "$first_host" ]
    ok $? "$cu: kernels before the host code" "last kernel at line $last_kernel, first host function at $first_host"

    lines=$(wc -l <"$cu")
    if [ "$lines" -gt 150 ]; then
        grep -q "^/\* ==== main ==== \*/$" "$cu" && [ "$(grep -c '^/\* ==== ' "$cu")" -ge 2 ]
        ok $? "$cu ($lines lines) has section banners, main's last"
    fi
done
done_testing
