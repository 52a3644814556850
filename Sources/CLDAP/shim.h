#ifndef SG_CLDAP_SHIM_H
#define SG_CLDAP_SHIM_H

// OpenLDAP's client library. Only the non-deprecated (_ext, sasl) calls are used, so LDAP_DEPRECATED stays off.
#include <stddef.h>
#include <sys/time.h>
#include <lber.h>
#include <ldap.h>

// Macros that Swift cannot import (pointer casts) or calls whose argument shapes are awkward from Swift.

/// A simple bind: LDAP_SASL_SIMPLE is `(char *)0`, and the password travels as a counted berval.
static inline int sg_ldap_simple_bind(LDAP *ld, const char *dn, const char *password, size_t length) {
    struct berval credentials;
    credentials.bv_val = (char *)password;
    credentials.bv_len = (ber_len_t)length;
    return ldap_sasl_bind_s(ld, dn, LDAP_SASL_SIMPLE, &credentials, NULL, NULL, NULL);
}

static inline int sg_ldap_set_int(LDAP *ld, int option, int value) {
    return ldap_set_option(ld, option, &value);
}

static inline int sg_ldap_set_string(LDAP *ld, int option, const char *value) {
    return ldap_set_option(ld, option, value);
}

/// `seconds` (at least a millisecond) as libldap takes a timeout.
static inline struct timeval sg_timeval(double seconds) {
    struct timeval tv;
    if (seconds < 0.001) seconds = 0.001;
    tv.tv_sec = (time_t)seconds;
    tv.tv_usec = (suseconds_t)((seconds - (double)tv.tv_sec) * 1000000.0);
    return tv;
}

static inline int sg_ldap_set_seconds(LDAP *ld, int option, double seconds) {
    struct timeval tv = sg_timeval(seconds);
    return ldap_set_option(ld, option, &tv);
}

/// Referrals off: following them would bind elsewhere anonymously and can hang on Active Directory.
static inline int sg_ldap_referrals_off(LDAP *ld) {
    return ldap_set_option(ld, LDAP_OPT_REFERRALS, LDAP_OPT_OFF);
}

/// The diagnostic message of the last result on this handle, or NULL; free with ldap_memfree.
static inline char *sg_ldap_diagnostic(LDAP *ld) {
    char *message = NULL;
    if (ldap_get_option(ld, LDAP_OPT_DIAGNOSTIC_MESSAGE, &message) != LDAP_OPT_SUCCESS) return NULL;
    return message;
}

/// One synchronous search; `seconds` bounds the wait for the whole result.
static inline int sg_ldap_search(LDAP *ld, const char *base, int scope, const char *filter, char **attributes,
                                 LDAPControl **serverControls, double seconds, int sizeLimit, LDAPMessage **result) {
    struct timeval tv = sg_timeval(seconds);
    return ldap_search_ext_s(ld, base, scope, filter, attributes, 0, serverControls, NULL, &tv, sizeLimit, result);
}

/// The paged-results cookie of a search result (RFC 2696): 1 and a cookie to go on, 0 when done, <0 on error.
static inline int sg_ldap_page_cookie(LDAP *ld, LDAPMessage *result, struct berval *cookie) {
    LDAPControl **controls = NULL;
    int code = LDAP_SUCCESS;
    int rc = ldap_parse_result(ld, result, &code, NULL, NULL, NULL, &controls, 0);
    if (rc != LDAP_SUCCESS) return -1;
    if (code != LDAP_SUCCESS) { if (controls) ldap_controls_free(controls); return -2; }
    LDAPControl *page = ldap_control_find(LDAP_CONTROL_PAGEDRESULTS, controls, NULL);
    int more = 0;
    cookie->bv_val = NULL;
    cookie->bv_len = 0;
    if (page != NULL) {
        ber_int_t estimate = 0;
        if (ldap_parse_pageresponse_control(ld, page, &estimate, cookie) == LDAP_SUCCESS && cookie->bv_len > 0) more = 1;
    }
    if (controls) ldap_controls_free(controls);
    return more;
}

/// The result code inside a search result message.
static inline int sg_ldap_parse_code(LDAP *ld, LDAPMessage *result) {
    int code = LDAP_OTHER;
    if (ldap_parse_result(ld, result, &code, NULL, NULL, NULL, NULL, 0) != LDAP_SUCCESS) return LDAP_OTHER;
    return code;
}

/// 1 when `dn` parses as an LDAPv3 distinguished name.
static inline int sg_ldap_valid_dn(const char *dn) {
    LDAPDN parsed = NULL;
    if (ldap_str2dn(dn, &parsed, LDAP_DN_FORMAT_LDAPV3) != LDAP_SUCCESS) return 0;
    ldap_dnfree(parsed);
    return 1;
}

#endif
