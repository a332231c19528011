package io.fulcrum.acl;

import io.fulcrum.http.LoadedConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Warnings about ACLs, each the one HAProxy 2.6.12 printed for the same lines. */
class AclWarningsConfigTest {
    @TempDir
    Path dir;

    /**
     * "No pattern": only when nothing follows the criterion (a flag or "--" is enough to silence it) and its own
     * matching method takes patterns; the criterion is named as written, arguments included.
     */
    @Test
    void noPattern() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    acl a1 str(a),lower -m beg
                    acl a2 req.hdr(x)
                    acl a3 req.hdr(x) --
                    acl a4 path_beg -i
                    acl a5 http_first_req
                    acl a6 int(1)
                    acl a7 req.hdr(host) -m found
                    acl a8 path_beg
                    http-request deny if a1 || a2 || a3 || a4 || a5 || a6 || a7 || a8 || { str(a) }
                """).messages()).isEqualTo("""
                [WARNING]  (1) : config : parsing acl keyword 'req.hdr(x)' :
                  no pattern to match against were provided, so this ACL will never match.
                  If this is what you intended, please add '--' to get rid of this warning.
                  If you intended to match only for existence, please use '-m found'.
                  If you wanted to force an int to match as a bool, please use '-m bool'.

                [WARNING]  (1) : config : parsing acl keyword 'int(1)' :
                  no pattern to match against were provided, so this ACL will never match.
                  If this is what you intended, please add '--' to get rid of this warning.
                  If you intended to match only for existence, please use '-m found'.
                  If you wanted to force an int to match as a bool, please use '-m bool'.

                [WARNING]  (1) : config : parsing acl keyword 'path_beg' :
                  no pattern to match against were provided, so this ACL will never match.
                  If this is what you intended, please add '--' to get rid of this warning.
                  If you intended to match only for existence, please use '-m found'.
                  If you wanted to force an int to match as a bool, please use '-m bool'.

                [WARNING]  (1) : config : parsing acl keyword 'str(a)' :
                  no pattern to match against were provided, so this ACL will never match.
                  If this is what you intended, please add '--' to get rid of this warning.
                  If you intended to match only for existence, please use '-m found'.
                  If you wanted to force an int to match as a bool, please use '-m bool'.

                """);
    }

    /**
     * One warning per rule, about the first ACL that can never match where the rule runs, else the first ACL with a
     * keyword that cannot (HAProxy's plural "keywords" for HTTP rules, "in 'tcp-request content'" for tcp rules); the
     * keyword as written (shdr_beg). A listen section's rules run in its frontend and its backend: backend fetches are
     * fine there, and the stage named is the first (its backend's for response rules).
     */
    @Test
    void rulesWarnOfTheFirstAclThatCannotMatchWhereTheyRun() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                frontend f
                    bind :18001
                    tcp-request inspect-delay 1s
                    acl a res.hdr(x) y
                    acl a src 1.2.3.4
                    acl b res.hdr(x) y
                    tcp-request content reject if a
                    tcp-request content reject if { be_name x } b
                    http-request deny if { shdr_beg(x) y }
                    http-request deny if a b
                    http-request deny if a
                    default_backend l
                listen l
                    bind :18002
                    tcp-request inspect-delay 1s
                    tcp-response inspect-delay 1s
                    acl c res.hdr(x) y
                    acl c be_name y
                    tcp-request content reject if { be_name x } || { res.hdr(y) z }
                    tcp-response content reject if { req.hdr(x) y }
                    http-request deny if { be_name x } || { srv_name x }
                    http-request deny if c
                    http-response deny if { req.hdr(x) y }
                    server s 127.0.0.1:1
                """).messages()).isEqualTo("""
                [WARNING]  (1) : config : parsing [t.cfg:12] : acl 'a' involves keyword 'res.hdr' which is incompatible with 'frontend tcp-request content rule'
                [WARNING]  (1) : config : parsing [t.cfg:13] : anonymous acl will never match in 'tcp-request content' because it uses keyword 'be_name' which is incompatible with 'frontend tcp-request content rule'
                [WARNING]  (1) : config : parsing [t.cfg:14] : anonymous acl will never match because it uses keyword 'shdr_beg' which is incompatible with 'frontend http-request header rule'
                [WARNING]  (1) : config : parsing [t.cfg:15] : acl 'b' will never match because it only involves keywords that are incompatible with 'frontend http-request header rule'
                [WARNING]  (1) : config : parsing [t.cfg:16] : acl 'a' involves keywords 'res.hdr' which is incompatible with 'frontend http-request header rule'
                [WARNING]  (1) : config : parsing [t.cfg:24] : anonymous acl will never match in 'tcp-request content' because it uses keyword 'res.hdr' which is incompatible with 'frontend tcp-request content rule'
                [WARNING]  (1) : config : parsing [t.cfg:25] : anonymous acl will never match in 'tcp-response content' because it uses keyword 'req.hdr' which is incompatible with 'backend tcp-response content rule'
                [WARNING]  (1) : config : parsing [t.cfg:26] : anonymous acl will never match because it uses keyword 'srv_name' which is incompatible with 'frontend http-request header rule'
                [WARNING]  (1) : config : parsing [t.cfg:27] : acl 'c' involves keywords 'res.hdr' which is incompatible with 'frontend http-request header rule'
                [WARNING]  (1) : config : parsing [t.cfg:28] : anonymous acl will never match because it uses keyword 'req.hdr' which is incompatible with 'backend http-response header rule'
                """);
    }

    /**
     * The ACL "hdr" (and hdr_beg...) is req.hdr in HAProxy 2.6, not the fetch hdr that reads the message being
     * processed: it never matches in an http-response rule (tools/sample-diff.py found it matched there).
     */
    @Test
    void hdrIsTheRequestsInAnAcl() {
        assertThat(LoadedConfig.load(dir, LoadedConfig.HTTP_DEFAULTS + """
                backend b
                    acl a1 hdr_beg(x-a) 1
                    http-response set-header X-T 1 if { hdr(x-a) -m found }
                    http-response set-header X-T 2 if a1
                    http-response set-header X-T 3 if { shdr(x-a) -m found }
                    http-request set-header X-T 4 if { hdr(x-a) -m found }
                    http-response set-header X-T %[hdr(x-a)]
                    server s 127.0.0.1:1
                """).messages()).isEqualTo("""
                [WARNING]  (1) : config : parsing [t.cfg:8] : anonymous acl will never match because it uses keyword 'hdr' which is incompatible with 'backend http-response header rule'
                [WARNING]  (1) : config : parsing [t.cfg:9] : acl 'a1' will never match because it only involves keywords that are incompatible with 'backend http-response header rule'
                """);
    }
}
