#!/bin/bash
# Mutation testing with cosmic-ray (not run in CI; about an hour of one core). See docs/mutation.md.
#
#   tools/mutation/run_all.sh COPY OUT [SESSION...]
#
# COPY is a clone of the project that nobody is editing (cosmic-ray mutates its files in place);
# OUT a folder for the sessions and reports. Sessions: view_events sampler notation boxes
# (default: all four). Run it with the project's dev environment active and cosmic-ray installed
# (pip install 'cosmic-ray>=8.7,<9').
set -eu
COPY=$(realpath "$1"); OUT=$(realpath -m "$2"); shift 2
HERE=$(dirname "$(realpath "$0")")
SESSIONS=("$@"); [ ${#SESSIONS[@]} -eq 0 ] && SESSIONS=(view_events sampler notation boxes)
mkdir -p "$OUT"
cd "$COPY"
for s in "${SESSIONS[@]}"; do
  db="$OUT/$s.sqlite"
  if [ ! -e "$db" ]; then
    cosmic-ray init "$HERE/$s.toml" "$db"                       # generate the mutants
    cr-filter-operators "$db" "$HERE/$s.toml"                   # the reduced operator set
    python "$HERE/skip_annotations.py" "$db"                    # annotations never run
    sqlite3 "$db" < "$HERE/skip_number_minus.sql"               # NumberReplacer: +1 only
  fi
  echo "== $s baseline $(date -u +%T)"
  nice -n 19 cosmic-ray baseline "$HERE/$s.toml"
  echo "== $s exec $(date -u +%T)"
  nice -n 19 cosmic-ray exec "$HERE/$s.toml" "$db"
  echo "== $s done $(date -u +%T)"
  cr-report --show-pending "$db" > "$OUT/$s.report.txt"
  git status --short src                                      # must be clean: cosmic-ray restores each file
done
