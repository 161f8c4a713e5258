#!/usr/bin/env bash
# tests/style/check_src.sh REPO: the conventions a compiler does not check, as curl's checksrc.pl
# does: banned functions in src/, printing outside src/main.c and src/report/, cJSON.h outside the
# loaders and writers, a header comment that says what each file owns, files over 800 lines; the
# same banned functions, headers and size ceiling in cuda-probe/.
set -u
cd "${1:-.}" || exit 2
fail=0
complain() { echo "$1"; fail=1; }

banned='\b(strtok|strerror|localtime|gmtime|setlocale|sprintf|cJSON_GetErrorPtr)[[:space:]]*\('
while IFS= read -r hit; do complain "banned function: $hit"; done < <(
  grep -rnE --include='*.c' --include='*.cpp' --include='*.h' "$banned" src | grep -vE 'snprintf|vsnprintf|strerror_r')
while IFS= read -r hit; do complain "pcre2posix.h is banned: $hit"; done < <(grep -n 'pcre2posix.h' -r src)

while IFS= read -r hit; do complain "printing outside main.c and src/report/: $hit"; done < <(
  grep -rnE --include='*.c' --include='*.cpp' '\b(printf|fprintf|puts|fputs|perror)[[:space:]]*\(' src | grep -vE '^src/(main\.c|report/)')

while IFS= read -r f; do
  head -1 "$f" | grep -q "^/\* $(basename "$f"): " || complain "$f: first line must be '/* $(basename "$f"): what it owns'"
  n=$(wc -l < "$f")
  [ "$n" -le 800 ] || complain "$f: $n lines, over the 800-line ceiling: split it by responsibility"
done < <(find src \( -name '*.c' -o -name '*.cpp' -o -name '*.h' -o -name '*.def' \) | sort)

# cuda-probe/: the same banned functions, header comment and size ceiling (printing is allowed:
# the probe is a program of its own).
while IFS= read -r hit; do complain "banned function: $hit"; done < <(
  grep -nE "$banned" cuda-probe/*.c cuda-probe/*.h cuda-probe/*.cu 2>/dev/null | grep -vE 'snprintf|vsnprintf|strerror_r')
for f in cuda-probe/*.c cuda-probe/*.h cuda-probe/*.cu; do
  [ -f "$f" ] || continue
  head -1 "$f" | grep -q "^/\* $(basename "$f"): " || complain "$f: first line must be '/* $(basename "$f"): what it owns'"
  n=$(wc -l < "$f")
  [ "$n" -le 800 ] || complain "$f: $n lines, over the 800-line ceiling: split it by responsibility"
done

exit $fail
