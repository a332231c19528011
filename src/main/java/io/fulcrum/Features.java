package io.fulcrum;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The build features, as HAProxy's {@code -vv} "Feature list" names them: '+' present, '-' absent.
 * {@code .if feature(NAME)} tests this list, so a feature is '+' only when Fulcrum really implements it.
 */
public final class Features {
    private Features() {
    }

    private static final Map<String, Boolean> FEATURES = new LinkedHashMap<>();

    static {
        FEATURES.put("EPOLL", true);
        FEATURES.put("KQUEUE", false);
        FEATURES.put("NETFILTER", false);
        FEATURES.put("PCRE", false);
        FEATURES.put("PCRE_JIT", false);
        FEATURES.put("PCRE2", false);
        FEATURES.put("PCRE2_JIT", false);
        FEATURES.put("POLL", false);
        FEATURES.put("THREAD", true);
        FEATURES.put("BACKTRACE", false);
        FEATURES.put("STATIC_PCRE", false);
        FEATURES.put("STATIC_PCRE2", false);
        FEATURES.put("TPROXY", false);
        FEATURES.put("CPU_AFFINITY", false);
        FEATURES.put("TFO", true);
        FEATURES.put("NS", false);
        FEATURES.put("DL", false);
        FEATURES.put("RT", true);
        FEATURES.put("DEVICEATLAS", false);
        FEATURES.put("51DEGREES", false);
        FEATURES.put("WURFL", false);
        FEATURES.put("SYSTEMD", false);
        FEATURES.put("OBSOLETE_LINKER", false);
        FEATURES.put("PRCTL", false);
        FEATURES.put("PROCCTL", false);
        FEATURES.put("THREAD_DUMP", false);
        FEATURES.put("EVPORTS", false);
        FEATURES.put("OT", false);
        FEATURES.put("QUIC", false);
        FEATURES.put("PROMEX", true); // the prometheus-exporter service
        FEATURES.put("MEMORY_PROFILING", false);
        FEATURES.put("LIBCRYPT", true); // userlist passwords in crypt(3) hashes
        FEATURES.put("CRYPT_H", false);
        FEATURES.put("ENGINE", false);
        FEATURES.put("GETADDRINFO", true);
        FEATURES.put("OPENSSL", true); // TLS (ssl on bind and server lines), a BoringSSL build
        FEATURES.put("LUA", false);
        FEATURES.put("ACCEPT4", true);
        FEATURES.put("CLOSEFROM", false);
        FEATURES.put("ZLIB", false);
        FEATURES.put("SLZ", false);
        FEATURES.put("LINUX_SPLICE", false);
        FEATURES.put("LINUX_TPROXY", false);
    }

    /** True when {@code name} is listed with a '+'. */
    public static boolean has(String name) {
        return FEATURES.getOrDefault(name, false);
    }

    /** The list as {@code -vv} prints it: "+EPOLL -KQUEUE ...". */
    public static String list() {
        StringBuilder sb = new StringBuilder();
        FEATURES.forEach((name, on) -> sb.append(sb.isEmpty() ? "" : " ").append(on ? '+' : '-').append(name));
        return sb.toString();
    }
}
