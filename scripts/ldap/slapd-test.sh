#!/bin/sh
# A throwaway slapd for the LDAP tests and for trying sgserver by hand.
#
#   slapd-test.sh prepare WORKDIR        write WORKDIR/slapd.conf and load directory.ldif
#   slapd-test.sh run WORKDIR PORT       run slapd in the foreground on 127.0.0.1:PORT (exec: same pid)
#   slapd-test.sh start WORKDIR PORT     prepare if needed, start in the background, wait until it answers
#   slapd-test.sh stop WORKDIR           stop what start started
#
# Needs slapd and ldap-utils (Debian: apt-get install slapd ldap-utils). The directory is
# dc=example,dc=com; service account cn=sgemployee,ou=services,dc=example,dc=com / service-secret.
set -eu

here=$(cd "$(dirname "$0")" && pwd)

first_dir() {
    for candidate in "$@"; do
        if [ -d "$candidate" ]; then echo "$candidate"; return 0; fi
    done
    return 1
}

slapd_bin() {
    command -v slapd 2>/dev/null || first_file /usr/sbin/slapd /usr/libexec/slapd /opt/homebrew/opt/openldap/libexec/slapd /usr/local/opt/openldap/libexec/slapd
}

first_file() {
    for candidate in "$@"; do
        if [ -x "$candidate" ]; then echo "$candidate"; return 0; fi
    done
    echo "slapd not found: install slapd (Debian: apt-get install slapd ldap-utils)" >&2
    return 1
}

slapadd_bin() {
    command -v slapadd 2>/dev/null || first_file /usr/sbin/slapadd /opt/homebrew/opt/openldap/sbin/slapadd /usr/local/opt/openldap/sbin/slapadd
}

prepare() {
    workdir=$1
    schemadir=$(first_dir /etc/ldap/schema /etc/openldap/schema /opt/homebrew/etc/openldap/schema /usr/local/etc/openldap/schema) \
        || { echo "OpenLDAP schema directory not found" >&2; exit 1; }
    moduledir=$(first_dir /usr/lib/ldap /usr/lib64/openldap /usr/lib/openldap /opt/homebrew/opt/openldap/libexec/openldap /usr/local/opt/openldap/libexec/openldap) \
        || { echo "OpenLDAP module directory not found" >&2; exit 1; }
    mkdir -p "$workdir/data"
    workdir=$(cd "$workdir" && pwd)
    sed -e "s|@SCHEMADIR@|$schemadir|g" -e "s|@MODULEDIR@|$moduledir|g" -e "s|@WORKDIR@|$workdir|g" \
        "$here/slapd.conf.in" > "$workdir/slapd.conf"
    "$(slapadd_bin)" -q -f "$workdir/slapd.conf" -l "$here/directory.ldif"
}

command=${1:-}
case "$command" in
    prepare)
        prepare "$2"
        ;;
    run)
        [ -f "$2/slapd.conf" ] || prepare "$2"
        # -d 0: stay in the foreground without debug output, so the caller's process is slapd itself.
        exec "$(slapd_bin)" -f "$2/slapd.conf" -h "ldap://127.0.0.1:$3/" -d 0
        ;;
    start)
        [ -f "$2/slapd.conf" ] || prepare "$2"
        "$(slapd_bin)" -f "$2/slapd.conf" -h "ldap://127.0.0.1:$3/"
        tries=0
        until ldapsearch -x -H "ldap://127.0.0.1:$3/" -b "" -s base -LLL 1.1 >/dev/null 2>&1; do
            tries=$((tries + 1))
            if [ "$tries" -gt 50 ]; then echo "slapd did not answer on port $3" >&2; exit 1; fi
            sleep 0.1
        done
        echo "slapd listening on ldap://127.0.0.1:$3/ (pid $(cat "$2/slapd.pid"))"
        ;;
    stop)
        if [ -f "$2/slapd.pid" ]; then kill "$(cat "$2/slapd.pid")" 2>/dev/null || true; fi
        ;;
    *)
        sed -n '2,10p' "$0" >&2
        exit 2
        ;;
esac
