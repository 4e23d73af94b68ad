# tests/tables/text.awk: text as the READMEs write it (tests/tables.sh reads it before the recipes that
# write prose): wrap(text) in lines of at most 104 characters, a `code span` or a "quote" kept whole;
# list(a, n): "a[1], a[2] and a[3]".
function list(a, n,   i, s) {
    for (i = 1; i <= n; i++) s = s a[i] (i < n - 1 ? ", " : i == n - 1 ? " and " : "")
    return s
}
function wrap(text,   words, n, i, line, out, w) {
    n = split(text, words, " "); line = ""
    for (i = 1; i <= n; i++) {
        w = words[i]
        while ((gsub(/`/, "`", w) % 2 == 1 || gsub(/"/, "\"", w) % 2 == 1) && i < n) w = w " " words[++i]
        if (line != "" && length(line) + 1 + length(w) > 104) { out = out line "\n"; line = w }
        else line = line (line == "" ? "" : " ") w
    }
    return out line
}
