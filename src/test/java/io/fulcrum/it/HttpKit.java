package io.fulcrum.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;

/**
 * What the Http*IT tests share: a {@code mode http} configuration with one frontend and one backend,
 * started like the TcpProxy*IT ones ({@link TcpProxyKit#serve}, so that {@code -Dit.proxy=haproxy} runs
 * the same tests against the real HAProxy), and a JDK HTTP client.
 */
final class HttpKit {
    private HttpKit() {
    }

    /**
     * A frontend on 127.0.0.1:{@code fe} whose backend has one server, 127.0.0.1:{@code be}; {@code defaults}
     * are more lines for the defaults section (timeouts are 2 s connect, 10 s client and server unless given).
     */
    static String config(int fe, int be, String defaults) {
        StringBuilder d = new StringBuilder();
        if (!defaults.contains("timeout connect")) {
            d.append("timeout connect 2s\n");
        }
        if (!defaults.contains("timeout client")) {
            d.append("timeout client 10s\n");
        }
        if (!defaults.contains("timeout server")) {
            d.append("timeout server 10s\n");
        }
        d.append(defaults);
        return """
                defaults
                    mode http
                %s
                frontend fe
                    bind 127.0.0.1:%d
                    default_backend be

                backend be
                    server s1 127.0.0.1:%d
                """.formatted(d.toString().indent(4), fe, be);
    }

    static String config(int fe, int be) {
        return config(fe, be, "");
    }

    /**
     * A frontend listening on {@code bind} and a backend with one server, 127.0.0.1:{@code be}, each with more lines
     * of its own ({@code frontend}, {@code backend}); timeouts are 2 s connect, 10 s client and server.
     */
    static String config(String bind, String frontend, String backend, int be) {
        return """
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 10s
                    timeout server 10s
                frontend fe
                    bind %s
                %s
                    default_backend be
                backend be
                %s
                    server s1 127.0.0.1:%d
                """.formatted(bind, frontend.indent(4), backend.indent(4), be);
    }

    /** Starts the proxy (Fulcrum, or HAProxy with -Dit.proxy=haproxy) on {@code config}. */
    static FulcrumProcess serve(String config, int port) throws Exception {
        return TcpProxyKit.serve(config, port);
    }

    static boolean haproxy() {
        return TcpProxyKit.haproxy();
    }

    static HttpClient jdkClient() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    }

    static HttpRequest.Builder request(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(20));
    }

    /** A GET request with a Host field, as bytes on the wire. */
    static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: test\r\n\r\n";
    }
}
