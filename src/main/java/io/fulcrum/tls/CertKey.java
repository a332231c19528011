package io.fulcrum.tls;

import java.security.PrivateKey;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * A certificate with its key and chain, as one PEM file gives them ({@code crt}), and the names SNI finds it by:
 * its DNS subject alternative names and its subject's common names, in lower case ({@code *.} for wildcards); the
 * OCSP response it staples ({@code <file>.ocsp}), or null.
 */
record CertKey(String file, PrivateKey key, X509Certificate[] chain, List<String> names, OcspStaple staple) {

    static CertKey of(String file, PrivateKey key, X509Certificate[] chain) {
        return new CertKey(file, key, chain, names(chain[0]), null);
    }

    CertKey withKey(PrivateKey k) {
        return new CertKey(file, k, chain, names, staple);
    }

    CertKey stapling(OcspStaple s) {
        return new CertKey(file, key, chain, names, s);
    }

    X509Certificate leaf() {
        return chain[0];
    }

    private static List<String> names(X509Certificate cert) {
        Set<String> names = new LinkedHashSet<>();
        try {
            if (cert.getSubjectAlternativeNames() != null) {
                for (List<?> san : cert.getSubjectAlternativeNames()) {
                    if ((Integer) san.get(0) == 2) { // dNSName
                        names.add(((String) san.get(1)).toLowerCase(Locale.ROOT));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            // no usable SAN: the common names still name it
        }
        try {
            for (Rdn rdn : new LdapName(cert.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    names.add(rdn.getValue().toString().toLowerCase(Locale.ROOT));
                }
            }
        } catch (InvalidNameException e) {
            // a subject the JDK printed cannot be unparsable; nothing to add then
        }
        return new ArrayList<>(names);
    }
}
