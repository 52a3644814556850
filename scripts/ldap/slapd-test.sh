#!/bin/sh
# A throwaway slapd for the LDAP tests and for trying sgserver by hand.
#
#   slapd-test.sh prepare WORKDIR        write WORKDIR/slapd.conf and load directory.ldif
#   slapd-test.sh tls WORKDIR            make a test CA and a certificate for 127.0.0.1/localhost in
#                                        WORKDIR/tls, and turn TLS on in WORKDIR/slapd.conf (needs openssl)
#   slapd-test.sh run WORKDIR PORT [TLSPORT]
#                                        run slapd in the foreground on ldap://127.0.0.1:PORT (StartTLS
#                                        once tls was run) and ldaps://127.0.0.1:TLSPORT (exec: same pid)
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
    command -v slapd 2>/dev/null || first_file slapd /usr/sbin/slapd /usr/libexec/slapd /opt/homebrew/opt/openldap/libexec/slapd /usr/local/opt/openldap/libexec/slapd
}

# first_file NAME CANDIDATE...: the first executable candidate, or a message naming the missing NAME.
first_file() {
    name=$1
    shift
    for candidate in "$@"; do
        if [ -x "$candidate" ]; then echo "$candidate"; return 0; fi
    done
    echo "$name not found: install slapd (Debian: apt-get install slapd ldap-utils)" >&2
    return 1
}

slapadd_bin() {
    command -v slapadd 2>/dev/null || first_file slapadd /usr/sbin/slapadd /opt/homebrew/opt/openldap/sbin/slapadd /usr/local/opt/openldap/sbin/slapadd
}

prepare() {
    workdir=$1
    schemadir=$(first_dir /etc/ldap/schema /etc/openldap/schema /opt/homebrew/etc/openldap/schema /usr/local/etc/openldap/schema) \
        || { echo "OpenLDAP schema directory not found" >&2; exit 1; }
    moduledir=$(first_dir /usr/lib/ldap /usr/lib64/openldap /usr/lib/openldap /opt/homebrew/opt/openldap/libexec/openldap /usr/local/opt/openldap/libexec/openldap) \
        || { echo "OpenLDAP module directory not found" >&2; exit 1; }
    mkdir -p "$workdir/data"
    workdir=$(cd "$workdir" && pwd)
    sed -e "s|@SCHEMADIR@|$schemadir|g" -e "s|@MODULEDIR@|$moduledir|g" -e "s|@WORKDIR@|$workdir|g" -e "s|@HERE@|$here|g" \
        "$here/slapd.conf.in" > "$workdir/slapd.conf"
    "$(slapadd_bin)" -q -f "$workdir/slapd.conf" -l "$here/directory.ldif"
}

tls() {
    workdir=$(cd "$1" && pwd)
    mkdir -p "$workdir/tls"
    cd "$workdir/tls"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
        -subj "/CN=SGEmployee Test CA" -keyout ca.key -out ca.pem 2>/dev/null
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
        -subj "/CN=127.0.0.1" -keyout server.key -out server.csr 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > server.ext
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
        -extfile server.ext -out server.pem 2>/dev/null
    # Global TLS directives go before the database section.
    sed -i.bak -e "/^database mdb/i\\
TLSCACertificateFile $workdir/tls/ca.pem\\
TLSCertificateFile $workdir/tls/server.pem\\
TLSCertificateKeyFile $workdir/tls/server.key\\
" "$workdir/slapd.conf"
}

command=${1:-}
case "$command" in
    prepare)
        prepare "$2"
        ;;
    tls)
        tls "$2"
        ;;
    run)
        [ -f "$2/slapd.conf" ] || prepare "$2"
        urls="ldap://127.0.0.1:$3/"
        if [ -n "${4:-}" ]; then urls="$urls ldaps://127.0.0.1:$4/"; fi
        # -d 0: stay in the foreground without debug output, so the caller's process is slapd itself.
        exec "$(slapd_bin)" -f "$2/slapd.conf" -h "$urls" -d 0
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
