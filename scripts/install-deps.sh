#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, only those missing.
# Usage: scripts/install-deps.sh [extra-package ...]
set -euo pipefail

# slapd, ldap-utils and openssl: the LDAP tests run a throwaway slapd (scripts/ldap) with a test CA.
# curl: scripts/api-check.sh talks to the server it starts (python3-venv is added there only when needed).
packages=(libsqlite3-dev libldap2-dev libcurl4-openssl-dev liblz4-dev zlib1g-dev sqlite3 slapd ldap-utils openssl curl "$@")
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing Debian packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null; then
    sudo=(sudo)
else
    echo "error: missing packages ${missing[*]}; install them as root (apt-get install ${missing[*]})" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
