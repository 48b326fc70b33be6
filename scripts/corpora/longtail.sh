#!/usr/bin/env bash
# Real, pinned corpora for the long-tail languages (issue 13), beside ../shared/corpora/build.sh's.
# Usage: longtail.sh [NAME ...]   (default: all of them). Prints each corpus's directory, one a line.
# Destination: $CODEGRAPH_CORPORA or ~/.cache/codegraph-corpora; a corpus already built is skipped.
# Debian binary packages are unpacked with `apt-get download` + `dpkg -x` (nothing is installed); Debian
# source packages use a private APT config under DEST/.apt (the system's sources are not touched).
#
#   name               source                                      what it is
#   erlang-otp-stdlib  deb erlang-src 25.2.3 (lib/stdlib-*/src)     Erlang/OTP's stdlib sources
#   lua-awesome        deb awesome 4.3 (usr/share/awesome/lib)      the awesome window manager's Lua library
#   perl-mojolicious   deb libmojolicious-perl 9.31                 Mojolicious (Perl web framework)
#   elixir-lib         deb-src elixir-lang 1.14.0 (lib/elixir/lib)  Elixir's own standard library
#   pascal-fcl-base    deb fpc-source-3.2.2 (packages/fcl-base)     Free Pascal's base class library
#   sol-openzeppelin   npm @openzeppelin/contracts@5.7.0            OpenZeppelin's Solidity contracts
#   vue-nuxt-ui        npm @nuxt/ui@4.11.2                          Vue single-file components
#   svelte-bits-ui     npm bits-ui@2.21.0                           Svelte components
#   astro-starlight    npm @astrojs/starlight@0.42.4                Astro components
#   objc-react-native  npm react-native@0.86.3 (React/)             React Native's Objective-C(++) core
set -euo pipefail
DEST=${CODEGRAPH_CORPORA:-$HOME/.cache/codegraph-corpora}
mkdir -p "$DEST"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

deb_bin() { # corpus subpath pkg=version...   (subpath is inside the unpacked packages)
  local c=$1 sub=$2; shift 2
  [ -d "$DEST/$c" ] && return 0
  mkdir -p "$tmp/$c/x"
  (cd "$tmp/$c" && apt-get download -q "$@" >/dev/null 2>&1) \
    || { apt-get update -q >/dev/null 2>&1; (cd "$tmp/$c" && apt-get download -q "$@" >/dev/null); }
  for d in "$tmp/$c"/*.deb; do dpkg -x "$d" "$tmp/$c/x"; done
  # shellcheck disable=SC2086  # the subpath may hold a glob (a versioned directory)
  mv $tmp/$c/x/$sub "$DEST/$c"
}
apt_src_init() {
  local a=$DEST/.apt
  [ -f "$a/apt.conf" ] && return 0
  mkdir -p "$a/lists/partial" "$a/parts" "$a/cache/archives/partial"
  local src; src=$(ls /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
  [ -n "$src" ] || { echo "no /etc/apt/sources.list.d/*.sources to derive a deb-src entry from" >&2; return 1; }
  awk 'BEGIN{RS="";FS="\n"} NR==1{for(i=1;i<=NF;i++){if($i ~ /^Types:/) $i="Types: deb-src"; if($i ~ /^Suites:/){split($i,s," "); $i="Suites: " s[2]} if($i !~ /^#/) print $i}}' "$src" >"$a/parts/src.sources"
  printf 'Dir::Etc::SourceList "/dev/null";\nDir::Etc::SourceParts "%s/parts";\nDir::State::Lists "%s/lists";\nDir::Cache "%s/cache";\n' "$a" "$a" "$a" >"$a/apt.conf"
  APT_CONFIG=$a/apt.conf apt-get update -q >/dev/null
}
deb_src() { # corpus subpath srcpkg=version   (subpath is inside the unpacked orig tarball)
  local c=$1 sub=$2 pkg=$3
  [ -d "$DEST/$c" ] && return 0
  apt_src_init
  mkdir -p "$tmp/$c/x"
  (cd "$tmp/$c" && APT_CONFIG=$DEST/.apt/apt.conf apt-get source -q --download-only "$pkg" >/dev/null 2>&1) || true
  local t found=
  for t in "$tmp/$c"/*.orig.tar.gz "$tmp/$c"/*.orig.tar.xz "$tmp/$c"/*.orig.tar.bz2; do
    [ -f "$t" ] && { tar -xf "$t" -C "$tmp/$c/x"; found=1; }
  done
  [ -n "$found" ] || { echo "no orig tarball for $pkg" >&2; return 1; }
  # shellcheck disable=SC2086
  mv $tmp/$c/x/$sub "$DEST/$c"
}
npm_sub() { # corpus subpath spec   (subpath is inside package/)
  [ -d "$DEST/$1" ] && return 0
  mkdir -p "$tmp/$1/x" && (cd "$tmp/$1" && npm pack --silent "$3" >/dev/null)
  tar -xzf "$tmp/$1"/*.tgz -C "$tmp/$1/x"
  if [ "$2" = . ]; then mv "$tmp/$1/x/package" "$DEST/$1"; else mv "$tmp/$1/x/package/$2" "$DEST/$1"; fi
}

ALL=(erlang-otp-stdlib lua-awesome perl-mojolicious elixir-lib pascal-fcl-base sol-openzeppelin vue-nuxt-ui svelte-bits-ui astro-starlight objc-react-native)
want=("$@"); [ ${#want[@]} -gt 0 ] || want=("${ALL[@]}")
for c in "${want[@]}"; do
  case "$c" in
    erlang-otp-stdlib) deb_bin "$c" 'usr/lib/erlang/lib/stdlib-*' erlang-src=1:25.2.3+dfsg-1+deb12u4 ;;
    lua-awesome) deb_bin "$c" usr/share/awesome/lib awesome=4.3-7 ;;
    perl-mojolicious) deb_bin "$c" usr/share/perl5 libmojolicious-perl=9.31+dfsg-1 ;;
    elixir-lib) deb_src "$c" 'elixir-*/lib/elixir/lib' elixir-lang=1.14.0.dfsg-2 ;;
    pascal-fcl-base) deb_bin "$c" usr/share/fpcsrc/3.2.2/packages/fcl-base fpc-source-3.2.2=3.2.2+dfsg-20 ;;
    sol-openzeppelin) npm_sub "$c" . @openzeppelin/contracts@5.7.0 ;;
    vue-nuxt-ui) npm_sub "$c" . @nuxt/ui@4.11.2 ;;
    svelte-bits-ui) npm_sub "$c" . bits-ui@2.21.0 ;;
    astro-starlight) npm_sub "$c" . @astrojs/starlight@0.42.4 ;;
    objc-react-native) npm_sub "$c" React react-native@0.86.3 ;;
    *) echo "unknown corpus: $c (known: ${ALL[*]})" >&2; exit 2 ;;
  esac
  echo "$DEST/$c"
done
