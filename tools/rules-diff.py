#!/usr/bin/env python3
"""Differential sweep of the HTTP rules and options: the same rule sets and requests through Fulcrum and haproxy.

Each case is a frontend and a backend of their own (the case's lines: http-request, http-response and
http-after-response actions, redirects, returns, denials, errorfiles, forwardfor, cookies, captures...), so one
configuration holds them all and each proxy starts once. The backend's server is an origin of this script that
captures the bytes it receives and answers each request head with the case's response. For each request of a case
(each on a fresh client connection) the script compares what the client got, whether its connection stayed open,
what the origin received, and the log lines (option httplog or the case's log-format, timers blanked).

Usage: tools/rules-diff.py [--only REGEX] [--port 16000] [--haproxy /usr/sbin/haproxy] [-v]
Ports: --port .. --port+7 (origins, TLS origins, log receivers, a server that never answers), then one per case and proxy from --port+10.
Differences listed in KNOWN (on purpose, documented) print as "known" (-v: in full); the exit status is 1 when
another one is found. The packaged jar must exist (bin/mvn -q -o package -DskipTests).
"""
import collections
import os
import re
import socket
import ssl
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from proxyrun import start, stop, wait_listening  # noqa: E402

h1diff = __import__("h1-diff")
HOME = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
HTML = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nok"


def resp(status=b"200 OK", fields=b"", body=b"ok"):
    return b"HTTP/1.1 " + status + b"\r\n" + fields + b"Content-Length: %d\r\n\r\n" % len(body) + body


def get(target="/", fields="", method="GET", version="HTTP/1.1", body=b""):
    head = f"{method} {target} {version}\r\nHost: a\r\n{fields}"
    if body:
        head += "Content-Length: %d\r\n" % len(body)
    return (head + "\r\n").encode("latin-1") + body


def case(name, fe=(), be=(), reqs=None, response=OK, top="", files=None, mask=(), bind="", tls=None, first=1):
    """fe, be: the lines of the case's frontend and backend; top: sections of its own ({i} is the case's number);
    files: name -> content, written in the run's directory ({dir} in the lines); mask: regular expressions whose
    matches are blanked in what is compared (values that legitimately change from run to run); bind: what follows
    the frontend's bind address (e.g. "ssl crt {dir}/a.pem"); tls: the client's TLS options (see tls_context), the
    client speaks plain TCP when None; first: the seconds the client waits for a first byte."""
    return dict(name=name, fe=list(fe), be=list(be), reqs=reqs or [get()], response=response, top=top,
                files=files or {}, mask=list(mask), bind=bind, tls=tls, first=first)


def hreq(*lines, **kw):
    return case(kw.pop("name"), fe=list(kw.pop("fe", [])) + ["http-request " + x for x in lines], **kw)


def hres(*lines, **kw):
    return case(kw.pop("name"), fe=list(kw.pop("fe", [])) + ["http-response " + x for x in lines], **kw)


def after(*lines, **kw):
    return case(kw.pop("name"), fe=list(kw.pop("fe", [])) + ["http-after-response " + x for x in lines], **kw)


# --- TLS: the certificates (made once per run in its directory) and the client's side -----------------------------

def make_certs(d):
    """Two CAs (ca.pem, other-ca.pem) and, signed by the first, server certificates (a.example, b.example: a.pem,
    b.pem with their keys; a2.pem, another for a.example; c.pem for c.example and *.c.example) and client certificates (client.crt, client.key; revoked.crt, which crl.pem revokes);
    stranger.crt, a client certificate of the other CA, and selfie.crt, a self-signed one; all ECDSA P-256 with fixed
    serials."""
    def sh(*args, stdin=None):
        subprocess.run(args, cwd=d, check=True, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    for name, cn, serial in [("ca", "/CN=Test CA/O=Fulcrum", "1"), ("other-ca", "/CN=Other CA/O=Elsewhere", "2"),
                             ("selfie", "/CN=myself/O=Users", "3")]:
        sh("openssl", "req", "-x509", *ec, "-keyout", name + ".key", "-out", name + ".pem", "-subj", cn,
           "-days", "3650", "-set_serial", serial)
    sh("cp", "selfie.pem", "selfie.crt")
    for name, ca, cn, serial, ext in [
            ("a", "ca", "/CN=a.example/O=Site A", "0x0A01", "subjectAltName=DNS:a.example"),
            ("b", "ca", "/CN=b.example/O=Site B", "0x0B02", "subjectAltName=DNS:b.example"),
            ("a2", "ca", "/CN=a.example/O=Site A renewed", "0x0A11", "subjectAltName=DNS:a.example"),
            ("c", "ca", "/CN=c.example/O=Site C", "0x0C21", "subjectAltName=DNS:c.example,DNS:*.c.example"),
            ("client", "ca", "/CN=client one/O=Users", "0x0C03", "extendedKeyUsage=clientAuth"),
            ("stranger", "other-ca", "/CN=stranger/O=Elsewhere", "0x0D04", "extendedKeyUsage=clientAuth"),
            ("revoked", "ca", "/CN=revoked one/O=Users", "0x0E05", "extendedKeyUsage=clientAuth"),
            ("srv-revoked", "ca", "/CN=revoked.example/O=Site R", "0x0E06", "subjectAltName=DNS:revoked.example")]:
        sh("openssl", "req", "-new", *ec, "-keyout", name + ".key", "-out", name + ".csr", "-subj", cn)
        with open(os.path.join(d, name + ".ext"), "w") as f:
            f.write(ext + "\n")
        sh("openssl", "x509", "-req", "-in", name + ".csr", "-CA", ca + ".pem", "-CAkey", ca + ".key", "-set_serial",
           serial, "-days", "3650", "-extfile", name + ".ext", "-out", name + ".crt")
        with open(os.path.join(d, name + ".pem"), "wb") as out:
            for part in (".crt", ".key"):
                with open(os.path.join(d, name + part), "rb") as f:
                    out.write(f.read())
    # crl.pem: the CA's list, revoking revoked.crt
    with open(os.path.join(d, "ca.cnf"), "w") as f:
        f.write("[ca]\ndefault_ca = dflt\n[dflt]\ndatabase = index.txt\ncrlnumber = crlnumber\ndefault_md = sha256\n"
                "default_crl_days = 3650\n")
    open(os.path.join(d, "index.txt"), "w").close()
    with open(os.path.join(d, "crlnumber"), "w") as f:
        f.write("1000\n")
    ca = ["-config", "ca.cnf", "-keyfile", "ca.key", "-cert", "ca.pem"]
    sh("openssl", "ca", *ca, "-revoke", "revoked.crt")
    sh("openssl", "ca", *ca, "-revoke", "srv-revoked.crt")
    sh("openssl", "ca", *ca, "-gencrl", "-out", "crl.pem")


def tls_context(opts, d):
    """A TLS client's context for <opts>: sni (the server name sent, none when absent), alpn (a list), version ("1.2" or
    "1.3": the only one offered), ciphers (TLS 1.2's list), cert (present client.crt, or NAME.crt when a name), resume
    (each connection after the first resumes the session of the one before)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    if "version" in opts:
        v = {"1.2": ssl.TLSVersion.TLSv1_2, "1.3": ssl.TLSVersion.TLSv1_3}[opts["version"]]
        ctx.minimum_version = ctx.maximum_version = v
    if "ciphers" in opts:
        ctx.set_ciphers(opts["ciphers"])
    if "alpn" in opts:
        ctx.set_alpn_protocols(opts["alpn"])
    if opts.get("cert"):
        name = "client" if opts["cert"] is True else opts["cert"]
        ctx.load_cert_chain(os.path.join(d, name + ".crt"), os.path.join(d, name + ".key"))
    return ctx


URIS = [get(u) for u in ["/", "/a", "/a/b", "/a/b/c?x=1", "/img/logo.png", "/index.html?q=2", "/a/b/c/d/e",
                          "http://a/abs/path?x", "/%41%42", "/very/long/path/with/many/segments/and/more"]]

NORMALIZE = [
    ("merge-slashes", "path-merge-slashes", "//a///b//?x//y"),
    ("strip-dot", "path-strip-dot", "/./a/./b/.?./x"),
    ("strip-dot-end", "path-strip-dot", "/a/."),
    ("strip-dotdot", "path-strip-dotdot", "/a/b/../c/./../d/.."),
    ("strip-dotdot-above", "path-strip-dotdot", "/../a/../../b"),
    ("strip-dotdot-full", "path-strip-dotdot full", "/../a/../../b"),
    ("decode-unreserved", "percent-decode-unreserved", "/%41%2d%2F%7e%20?q=%41"),
    ("decode-unreserved-strict", "percent-decode-unreserved strict", "/%41%zz"),
    ("decode-unreserved-bad", "percent-decode-unreserved", "/%41%zz%4"),
    ("to-uppercase", "percent-to-uppercase", "/%2f%aB?q=%c3%a9"),
    ("to-uppercase-strict", "percent-to-uppercase strict", "/%2f%g1"),
    ("to-uppercase-bad", "percent-to-uppercase", "/%2f%g1"),
    ("query-sort", "query-sort-by-name", "/p?b=2&a=1&c&a=0&=x&"),
    ("query-sort-empty", "query-sort-by-name", "/p?"),
    ("fragment-strip", "fragment-strip", "/p?q#frag"),
    ("fragment-encode", "fragment-encode", "/p?q#frag#x"),
]

ERR503 = b"HTTP/1.0 503 Custom\r\nCache-Control: no-cache\r\nContent-Type: text/plain\r\n\r\ncustom 503\n"
ERR403 = b"HTTP/1.1 403 Nope\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nnope\n"

SSL_FC = ("%[ssl_fc] %[ssl_fc_protocol] %[ssl_fc_cipher] %[ssl_fc_sni] %[ssl_fc_alpn] %[ssl_fc_use_keysize] "
          "%[ssl_fc_alg_keysize] %[ssl_fc_has_sni] %[ssl_fc_is_resumed] %[ssl_fc_has_crt] %[ssl_fc_err] %sslv %sslc")
SSL_F = ("%[ssl_f_s_dn] | %[ssl_f_i_dn] | %[ssl_f_s_dn(CN)] %[ssl_f_i_dn(O)] %[ssl_f_serial,hex] %[ssl_f_version] "
         "%[ssl_f_sig_alg] %[ssl_f_key_alg] %[ssl_f_notbefore] %[ssl_f_notafter] %[ssl_f_sha1,hex] "
         "%[ssl_f_der,length] %[ssl_f_s_dn(CN,1,rfc2253)]")
SSL_C = ("%[ssl_c_used] %[ssl_c_verify] %[ssl_c_err] %[ssl_c_ca_err] %[ssl_fc_has_crt] | %[ssl_c_s_dn] | "
         "%[ssl_c_i_dn] | %[ssl_c_serial,hex] %[ssl_c_version] %[ssl_c_sig_alg] %[ssl_c_key_alg] %[ssl_c_notbefore] "
         "%[ssl_c_sha1,hex] %[ssl_c_der,length] %[ssl_c_s_dn(CN)] %[ssl_c_i_dn(,0,rfc2253)]")

CASES = [
    # header rewrites
    hreq('set-header X-A "v %[src]"', name="set-header"),
    hreq("set-header X-A v1", "set-header X-A v2", name="set-header-twice"),
    hreq("add-header X-A v1", "add-header X-A v2", name="add-header-twice"),
    hreq('set-header Host "b:8080"', name="set-host"),
    hreq("del-header X-A", name="del-header", reqs=[get(fields="X-A: 1\r\nx-a: 2\r\nX-AB: 3\r\n")]),
    hreq("del-header x- -m beg", name="del-header-beg", reqs=[get(fields="X-A: 1\r\nX-B: 2\r\nY-X: 3\r\n")]),
    hreq("del-header -a -m sub", name="del-header-sub", reqs=[get(fields="X-A: 1\r\nX-B: 2\r\nY-A: 3\r\n")]),
    hreq("del-header ^x-[ab]$ -m reg", name="del-header-reg", reqs=[get(fields="X-A: 1\r\nX-AB: 2\r\nx-b: 3\r\n")]),
    hreq("del-header X-A -m end", name="del-header-end", reqs=[get(fields="X-A: 1\r\nZ-X-A: 2\r\n")]),
    hreq("del-header Host", name="del-host"),
    hreq(r"replace-header User-Agent ^(\w+)/(.*)$ \2-\1", name="replace-header",
         reqs=[get(fields="User-Agent: curl/8.1, other/2\r\n")]),
    hreq(r"replace-header X-A ^a(.*) b\1", name="replace-header-list", reqs=[get(fields="X-A: a1, a2\r\nX-A: a3\r\n")]),
    hreq(r"replace-value X-A ^a(.*) b\1", name="replace-value-list", reqs=[get(fields="X-A: a1, a2,a4\r\nX-A: a3\r\n")]),
    hreq(r'replace-header X-A ^(.*)$ "\1 %[req.hdr_cnt(x-a)]"', name="replace-header-lf",
         reqs=[get(fields="X-A: a1\r\n")]),
    hreq("set-header X-M %[method] if METH_POST", name="set-header-acl", reqs=[get(method="POST", body=b"hi"), get()]),
    hreq('set-header X-N "%[req.hdr(x-nope)]"', name="set-header-missing-fetch"),
    hreq("set-header X-B %[req.hdr(x-a,1)]|%[req.hdr(x-a,-1)]|%[req.fhdr(x-a)]", name="hdr-occurrences",
         reqs=[get(fields="X-A: 1, 2\r\nX-A: 3\r\n")]),
    # request line rewrites
    hreq("set-method PUT", name="set-method"),
    hreq("set-method get", name="set-method-lower"),
    hreq("set-path /new", name="set-path", reqs=[get("/old?q=1"), get("http://a/old?q"), get("*", method="OPTIONS")]),
    hreq("set-path %[path]/x", name="set-path-lf", reqs=[get("/old?q=1")]),
    hreq("set-pathq /new?n=1", name="set-pathq", reqs=[get("/old?q=1"), get("http://a:80/old?q")]),
    hreq("set-query a=1", name="set-query", reqs=[get("/p?q=1"), get("/p"), get("/p?")]),
    hreq("set-query %[query]&x=2", name="set-query-append", reqs=[get("/p?q=1"), get("/p")]),
    hreq("set-uri /u?v", name="set-uri", reqs=[get("/p?q=1"), get("http://a/p")]),
    hreq("set-uri http://b:81/u", name="set-uri-absolute", reqs=[get("/p?q=1")]),
    hreq(r"replace-path /old(.*) /new\1", name="replace-path", reqs=[get("/old/x?old=1"), get("http://a/old/y")]),
    hreq(r"replace-pathq /old(.*) /new\1", name="replace-pathq", reqs=[get("/old/x?old=1")]),
    hreq(r"replace-uri ^http://([^/]*)(.*) /h/\1\2", name="replace-uri-absolute", reqs=[get("http://a/x?q"), get("/x")]),
    hreq(r"replace-uri /old(.*) /new\1", name="replace-uri", reqs=[get("/old/x?q")]),
    hreq(r"replace-uri ^(.*)$ \1 ", name="replace-uri-invalid", reqs=[get("/x")]),
    # normalize-uri
    *[hreq("normalize-uri " + norm, name="normalize-" + n, reqs=[get(target)],
           fe=['log-format "%HU %HP %HQ %ST"']) for n, norm, target in NORMALIZE],
    # returns, denials, redirects
    hreq("return", name="return-default"),
    hreq("return status 404", name="return-404"),
    hreq('return status 200 content-type text/plain string "hello"', name="return-string"),
    hreq('return status 200 content-type "text/plain; charset=utf-8" lf-string "p=%[path] q=%[query]"',
         name="return-lf-string", reqs=[get("/x?y=1")]),
    hreq('return status 201 content-type text/plain string "x" hdr X-A v1 hdr X-B "%[path]"', name="return-hdr"),
    hreq("return status 304", name="return-304"),
    hreq("return status 200 content-type text/html file {dir}/page.html", name="return-file",
         files={"page.html": "<p>page</p>\n"}),
    hreq("return status 200 content-type text/plain lf-file {dir}/lf.txt", name="return-lf-file",
         files={"lf.txt": "path %[path]\n"}),
    hreq("return status 503 errorfile {dir}/e503.http", name="return-errorfile", files={"e503.http": ERR503}),
    hreq("return status 403 default-errorfiles", name="return-default-errorfiles",
         fe=["errorfile 403 {dir}/e403.http"], files={"e403.http": ERR403}),
    hreq("return status 403 errorfiles errs{i}", name="return-errorfiles",
         top="http-errors errs{i}\n    errorfile 403 {dir}/e403.http\n", files={"e403.http": ERR403}),
    hreq("return status 200 content-type text/plain string hi hdr Content-Length 9", name="return-hdr-content-length"),
    hreq("return string hi content-type text/plain hdr Connection close", name="return-hdr-connection"),
    hreq("deny", name="deny"),
    hreq("deny deny_status 429", name="deny-429"),
    hreq("deny status 400", name="deny-400"),
    hreq('deny status 403 content-type text/plain string "go away" hdr X-Why rules', name="deny-string"),
    hreq("deny deny_status 503", name="deny-503", fe=["errorfile 503 {dir}/e503.http"], files={"e503.http": ERR503}),
    hreq("deny", name="deny-errorfile", fe=["errorfile 403 {dir}/e403.http"], files={"e403.http": ERR403}),
    hreq("deny", name="deny-errorloc", fe=["errorloc 403 http://err.example/403"]),
    hreq("deny", name="deny-errorloc303", fe=["errorloc303 403 /denied"]),
    hreq("deny deny_status 429 errorfiles errs{i}", name="deny-errorfiles",
         top="http-errors errs{i}\n    errorfile 429 {dir}/e429.http\n",
         files={"e429.http": b"HTTP/1.1 429 Slow\r\nContent-Length: 5\r\n\r\nslow\n"}),
    case("errorfiles-directive", fe=["errorfiles errs{i} 403", "http-request deny if { path /d }",
                                     "http-request deny deny_status 429 if { path /t }"],
         top="http-errors errs{i}\n    errorfile 403 {dir}/e403.http\n    errorfile 429 {dir}/e429.http\n",
         files={"e403.http": ERR403, "e429.http": b"HTTP/1.1 429 Slow\r\nContent-Length: 5\r\n\r\nslow\n"},
         reqs=[get("/d"), get("/t")]),
    hreq("reject", name="reject"),
    hreq("auth", name="auth-default", reqs=[get(), get(fields="Authorization: Basic dTpw\r\n")]),
    hreq('auth realm "My Realm"', name="auth-realm"),
    hreq('auth realm "%[path]"', name="auth-realm-lf"),
    case("auth-backend", be=["http-request auth if !{ http_auth(users{i}) }"],
         top="userlist users{i}\n    user u insecure-password p\n",
         reqs=[get(), get(fields="Authorization: Basic dTpw\r\n"), get(fields="Authorization: Basic dTpx\r\n")]),
    hreq("tarpit", name="tarpit", fe=["timeout tarpit 200ms"]),
    hreq("tarpit deny_status 429", name="tarpit-429", fe=["timeout tarpit 200ms"]),
    hreq("redirect location /elsewhere", name="redirect-location"),
    hreq("redirect location /elsewhere code 301", name="redirect-301"),
    hreq("redirect location /elsewhere code 303", name="redirect-303"),
    hreq("redirect location /elsewhere code 307", name="redirect-307"),
    hreq("redirect location /elsewhere code 308", name="redirect-308"),
    hreq('redirect location "https://%[hdr(host)]%[capture.req.uri]"', name="redirect-location-lf",
         reqs=[get("/p?q")]),
    hreq("redirect prefix https://b.example", name="redirect-prefix", reqs=[get("/p?q=1")]),
    hreq("redirect prefix https://b.example drop-query", name="redirect-prefix-drop-query", reqs=[get("/p?q=1")]),
    hreq("redirect prefix / drop-query append-slash", name="redirect-prefix-slash",
         reqs=[get("/p?q=1"), get("/p/?q"), get("/a.b")]),
    hreq("redirect prefix https://b.example/", name="redirect-prefix-trailing-slash", reqs=[get("/p")]),
    hreq("redirect scheme https", name="redirect-scheme", reqs=[get("/p?q"), get(fields="Host: b:80\r\n")]),
    hreq("redirect scheme https code 301 drop-query", name="redirect-scheme-drop"),
    hreq("redirect scheme https", name="redirect-scheme-no-host", reqs=[b"GET /p HTTP/1.0\r\n\r\n"]),
    hreq("redirect location /x set-cookie SEEN=1", name="redirect-set-cookie"),
    hreq("redirect location /x clear-cookie SEEN=", name="redirect-clear-cookie"),
    hreq("redirect location /x clear-cookie SEEN", name="redirect-clear-cookie-noeq"),
    case("redirect-directive", fe=["redirect prefix /new code 302 if { path_beg /old }",
                                   "redirect location /l if { path /loc }"],
         reqs=[get("/old/x"), get("/loc"), get("/other")]),
    hreq("redirect location /x", name="redirect-keepalive-post",
         reqs=[get(method="POST", body=b"data")]),
    # variables and captures
    hreq("set-var(txn.a) req.hdr(x-a)", 'set-header X-Got "%[var(txn.a)]"', name="set-var",
         reqs=[get(fields="X-A: 42\r\n")]),
    hreq('set-var-fmt(txn.a) "%[path]-%[method]"', 'set-header X-Got "%[var(txn.a)]"', name="set-var-fmt"),
    hreq("set-var(txn.a) str(x)", "unset-var(txn.a)", 'set-header X-Got "%[var(txn.a)]"', name="unset-var"),
    hreq("set-var(txn.a,ifnotexists) str(first)", "set-var(txn.a,ifnotexists) str(second)",
         'set-header X-Got "%[var(txn.a)]"', name="set-var-ifnotexists"),
    case("capture-directive", fe=["capture request header User-Agent len 5", "capture request header X-A len 64",
                                  "capture response header Server len 20"],
         reqs=[get(fields="User-Agent: curl/8.1.0\r\n")], response=resp(fields=b"Server: origin/1\r\n")),
    case("capture-action", fe=["declare capture request len 8", "declare capture response len 8",
                               "http-request capture req.hdr(user-agent) id 0",
                               "http-request capture path len 4", "http-response capture res.hdr(server) id 0"],
         reqs=[get("/longpath", fields="User-Agent: curl/8.1.0\r\n")], response=resp(fields=b"Server: origin/1\r\n")),
    case("capture-log-format", fe=["capture request header User-Agent len 5",
                                   "capture response header Server len 20",
                                   'log-format "%hr %hs %hrl %hsl %{+Q}hr"'],
         reqs=[get(fields="User-Agent: curl/8.1.0\r\n")], response=resp(fields=b"Server: origin/1\r\n")),
    case("capture-cookie", fe=["capture cookie SID len 10", 'log-format "%CC %CS"'],
         reqs=[get(fields="Cookie: a=1; SID=abcdefghijklmnop\r\n")],
         response=resp(fields=b"Set-Cookie: SID=zz; path=/\r\n")),
    # log-format fields that may be empty, between separators
    *[case("logfmt-" + n, fe=['log-format "a %s b %%ST"' % fmt, "http-request set-var(txn.e) str()"],
           reqs=[get("/p")]) for n, fmt in [
        ("hq-empty", "%HQ"), ("str-empty", "%[str()]"), ("no-sample", "%[var(txn.nope)]"),
        ("no-sample-quoted", "%{+Q}[var(txn.nope)]"), ("var-empty", "%[var(txn.e)]"), ("var-unset", "%[var(txn.u)]"),
        ("hr-none", "%hr"), ("hrl-none", "%hrl"), ("id-none", "%ID"), ("cc-none", "%CC"), ("sslv", "%sslv"),
        ("sslc", "%sslc"), ("two-empty", "%HQ %[str()]"), ("quoted-empty", "%{+Q}HQ"), ("hq-then-text", "%HQ-x"),
        ("leading", "%[str()] %HQ"), ("mandatory", "%{+M}[var(txn.nope)]"), ("ts-text", "%[str()]x %[str()]"),
        ("rt", "%rt %rc %lc"), ("tsc", "%tsc"), ("b-s", "%b %s %bi %si"),
        ("bq-sq", "%bq/%sq"), ("fc", "%fc %bc %sc")]],
    # response side
    hres("set-status 404", name="set-status"),
    hres('set-status 503 reason "Try Later"', name="set-status-reason"),
    hres("set-status 299", name="set-status-unknown"),
    hres("set-status 200", name="set-status-keeps-reason", response=resp(b"200 Fine")),
    hres('set-header X-S "%[status]"', "del-header Server", name="response-headers",
         response=resp(fields=b"Server: x\r\n")),
    hres(r"replace-value Cache-Control ^private$ public", name="response-replace-value",
         response=resp(fields=b"Cache-Control: private, no-store\r\nCache-Control: private\r\n")),
    hres("deny", name="response-deny"),
    hres("deny deny_status 503", name="response-deny-503"),
    hres('deny status 500 content-type text/plain string "bad answer"', name="response-deny-string"),
    hres("redirect location /moved", name="response-redirect"),
    hres("redirect location /moved code 301 if { status 404 }", name="response-redirect-404",
         response=resp(b"404 Not Found")),
    hres('return status 200 content-type text/plain string "replaced"', name="response-return"),
    hres("set-var(txn.s) status", 'set-header X-V "%[var(txn.s)]"', name="response-var"),
    hres("add-header X-Date %[date,http_date]", name="response-http-date", mask=[r"X-Date: [^\r]*"]),
    after('set-header X-After "%[status]"', name="after-response"),
    after('set-header X-After "%[status]"', name="after-deny", fe=["http-request deny"]),
    after('set-header X-After "%[status]"', name="after-redirect", fe=["http-request redirect location /x"]),
    after('set-header X-After "%[status]"', name="after-return", fe=["http-request return status 202"]),
    after("set-status 418", name="after-set-status", fe=["http-request deny"]),
    after("set-status 203", name="after-set-status-forwarded"),
    after("set-status 500", name="after-set-status-redirect", fe=["http-request redirect location /x"]),
    after("set-status 404", name="after-set-status-errorfile", fe=["http-request deny deny_status 503",
                                                                    "errorfile 503 {dir}/e503.http"],
          files={"e503.http": ERR503}),
    after("del-header Content-Type", name="after-del", fe=["http-request deny"]),
    after('replace-header Server (.*) "\\1 via"', name="after-replace", response=resp(fields=b"Server: o\r\n")),
    after("allow", "set-header X-Not here", name="after-allow"),
    hres("set-header X-R 1", name="response-on-deny", fe=["http-request deny"]),
    case("response-then-after", fe=["http-response set-header X-Order r", "http-after-response add-header X-Order a"],
         be=["http-response add-header X-Order be", "http-after-response add-header X-Order be-a"]),
    case("response-deny-after", fe=["http-response deny", "http-after-response set-header X-A %[status]"]),
    # options
    case("forwardfor", fe=["option forwardfor"]),
    case("forwardfor-existing", fe=["option forwardfor"], reqs=[get(fields="X-Forwarded-For: 10.0.0.1\r\n")]),
    case("forwardfor-if-none", fe=["option forwardfor if-none"],
         reqs=[get(fields="X-Forwarded-For: 10.0.0.1\r\n"), get()]),
    case("forwardfor-header", fe=["option forwardfor header X-Client"]),
    case("forwardfor-except", fe=["option forwardfor except 127.0.0.0/8"]),
    case("forwardfor-backend", be=["option forwardfor header X-Be"], fe=["option forwardfor"]),
    case("originalto", fe=["option originalto"]),
    case("originalto-except", fe=["option originalto except 127.0.0.1"]),
    case("send-name-header", be=["http-send-name-header X-Srv"], reqs=[get(fields="X-Srv: fake\r\n")]),
    case("unique-id", fe=['unique-id-format "%{+X}o %ci-%fp"', "unique-id-header X-Unique-ID",
                          'log-format "%ID %ST"'], mask=[r"127\.0\.0\.1-\d+", r"7F000001-[0-9A-F]+"]),
    case("http-server-close", fe=["option http-server-close"], reqs=[get(), get(fields="Connection: keep-alive\r\n")]),
    case("httpclose", fe=["option httpclose"]),
    case("httpclose-http10", fe=["option httpclose"], reqs=[get(version="HTTP/1.0",
                                                               fields="Connection: keep-alive\r\n")]),
    case("monitor-uri", fe=["monitor-uri /health"], reqs=[get("/health"), get("/health?x"), get("/other")]),
    case("monitor-fail", fe=["monitor-uri /health", "monitor fail if { always_true }"], reqs=[get("/health")]),
    case("http-ignore-probes", fe=["option http-ignore-probes"], reqs=[b"\r\n"]),
    case("cookie-insert", be=["cookie SRV insert indirect nocache"], reqs=[get(), get(fields="Cookie: SRV=s1\r\n")]),
    case("cookie-insert-httponly", be=["cookie SRV insert secure httponly domain .a.example"]),
    case("cookie-insert-postonly", be=["cookie SRV insert postonly"], reqs=[get(), get(method="POST", body=b"x")]),
    case("cookie-prefix", be=["cookie SRV prefix"], response=resp(fields=b"Set-Cookie: JSID=abc; path=/\r\n"),
         reqs=[get(), get(fields="Cookie: JSID=s1~abc\r\n")]),
    case("cookie-rewrite", be=["cookie JSID rewrite"], response=resp(fields=b"Set-Cookie: JSID=abc; path=/\r\n")),
    case("cookie-insert-unknown", be=["cookie SRV insert indirect"], reqs=[get(fields="Cookie: SRV=zz; o=1\r\n")]),
    case("error-503-no-server", be=["http-request set-var(txn.x) str(1)"], fe=["use_backend none{i}"],
         top="backend none{i}\n    errorfile 503 {dir}/e503.http\n", files={"e503.http": ERR503}),
    case("http-response-strict-mode", fe=["http-response replace-header X-A (.*) \"\\1\\x01\""],
         response=resp(fields=b"X-A: v\r\n")),
    hreq("early-hint Link \"</style.css>; rel=preload\"", name="early-hint"),
    hreq("early-hint Link \"</a.css>\"", "early-hint Link \"</b.js>\"", name="early-hint-two"),
    hreq("set-log-level silent", name="set-log-level-silent"),
    hreq("set-src hdr(x-client)", name="set-src", fe=['log-format "%ci %ST"'],
         reqs=[get(fields="X-Client: 10.1.2.3\r\n"), get(fields="X-Client: nope\r\n")]),
    hreq("set-src-port int(4000)", name="set-src-port", fe=['log-format "%ci:%cp %ST"']),
    hreq("set-dst ipv4(10.9.9.9)", name="set-dst", fe=['log-format "%fi:%fp %ST"'], mask=[r":1[67]\d\d\d "]),
    hreq("disable-l7-retry", name="disable-l7-retry"),
    case("set-timeout", be=["http-request set-timeout server 1s"]),
    hreq("wait-for-body time 100ms", 'set-header X-Len "%[req.body_len]"', name="wait-for-body",
         reqs=[get(method="POST", body=b"hello")]),
    hreq('return content-type text/plain lf-string "%[req.body]"', name="buffer-request-body",
         fe=["option http-buffer-request"], reqs=[get(method="POST", body=b"hello")]),
    # rewrites that do not fit, hop-by-hop fields set by rules, framing fields touched
    hreq('set-header X-Big "%s"' % ("a" * 9000), name="rewrite-too-big"),
    hreq('set-header X-Big "%s"' % ("a" * 9000), name="rewrite-too-big-lenient", fe=["http-request strict-mode off"]),
    hres('set-header X-Big "%s"' % ("a" * 9000), name="response-rewrite-too-big"),
    after('set-header X-Big "%s"' % ("a" * 9000), name="after-rewrite-too-big"),
    hreq("set-header Connection close", name="request-connection-close"),
    hres("set-header Connection close", name="response-connection-close"),
    hres("del-header Content-Length", name="response-del-content-length"),
    hres("set-header Transfer-Encoding chunked", name="response-set-te"),
    hreq("del-header Host", "set-header Host b", name="host-replaced"),
    hreq("set-uri /a%%20b?c", name="set-uri-encoded"),
    hreq('set-uri "/a b"', name="set-uri-space"),
    hreq('set-path "/a%[str(\x01)]"', name="set-path-control"),
    hreq("return status 200 content-type text/plain string x hdr Set-Cookie a=1 hdr Set-Cookie b=2",
         name="return-two-cookies"),
    hreq('return status 200 content-type text/plain string x hdr X-E "%[str()]"', name="return-empty-hdr"),
    hreq("return status 301 hdr Location /there", name="return-location"),
    hreq("return status 200 content-type text/plain string x", name="return-head", reqs=[get(method="HEAD")]),
    hreq("return status 200 content-type text/plain string x", name="return-http10",
         reqs=[get(version="HTTP/1.0"), get(version="HTTP/1.0", fields="Connection: keep-alive\r\n")]),
    hreq("deny", name="deny-http10", reqs=[get(version="HTTP/1.0", fields="Connection: keep-alive\r\n")]),
    hreq("redirect location /x", name="redirect-head", reqs=[get(method="HEAD")]),
    case("stick-counters", fe=["stick-table type ip size 10 store http_req_cnt,conn_cnt",
                               "http-request track-sc0 src",
                               'http-request set-header X-C "%[sc0_http_req_cnt]/%[sc_conn_cnt(0)]/%[sc0_tracked]"'],
         reqs=[get(), get()]),
    case("stick-gpc", fe=["stick-table type ip size 10 store gpc0,gpt0", "http-request track-sc1 src",
                          "http-request sc-inc-gpc0(1)", "http-request sc-set-gpt0(1) 7",
                          'http-request set-header X-G "%[sc1_get_gpc0]/%[sc1_get_gpt0]"'], reqs=[get(), get()]),
    case("cache", top="cache c{i}\n    total-max-size 4\n    max-age 60\n",
         be=["http-request cache-use c{i}", "http-response cache-store c{i}",
             'http-response set-header X-Hit "%[res.cache_hit]"'],
         response=resp(fields=b"Cache-Control: max-age=60\r\n"), reqs=[get("/c"), get("/c")],
         mask=[r"age: \d+"]),
    case("errorloc302-no-server", fe=["use_backend none{i}"],
         top="backend none{i}\n    errorloc302 503 https://status.example/down\n"),
    case("errorloc303-no-server", fe=["use_backend none{i}"],
         top="backend none{i}\n    errorloc303 503 /down\n"),
    case("http-error-directive", fe=["use_backend none{i}"],
         top='backend none{i}\n    http-error status 503 content-type text/plain string "down" hdr X-E 1\n'),
    case("http-error-lf", fe=["use_backend none{i}"],
         top='backend none{i}\n    http-error status 503 content-type text/plain lf-string "down %[path]"\n'),
    case("pretend-keepalive", be=["option http-pretend-keepalive", "option http-server-close"]),
    case("server-close-backend", be=["option http-server-close"], reqs=[get(), get(version="HTTP/1.0")]),
    # compression: the head compared, the body's bytes masked (zlib settings differ), its framing kept
    *[case("compress-" + n, be=["compression algo gzip deflate", "compression type text/plain"] + extra,
           response=r, reqs=[get(fields=ae)], mask=[r"\r\n\r\n[\s\S]+$"]) for n, extra, r, ae in [
        ("gzip", [], resp(fields=b"Content-Type: text/plain\r\n", body=b"x" * 300), "Accept-Encoding: gzip\r\n"),
        ("deflate-q", [], resp(fields=b"Content-Type: text/plain\r\n", body=b"x" * 300),
         "Accept-Encoding: gzip;q=0.5, deflate\r\n"),
        ("identity", [], resp(fields=b"Content-Type: text/plain\r\n", body=b"x" * 300), "Accept-Encoding: identity\r\n"),
        ("wrong-type", [], resp(fields=b"Content-Type: image/png\r\n", body=b"x" * 300), "Accept-Encoding: gzip\r\n"),
        ("no-accept", [], resp(fields=b"Content-Type: text/plain\r\n", body=b"x" * 300), ""),
        ("encoded", [], resp(fields=b"Content-Type: text/plain\r\nContent-Encoding: br\r\n", body=b"x" * 300),
         "Accept-Encoding: gzip\r\n"),
        ("no-transform", [], resp(fields=b"Content-Type: text/plain\r\nCache-Control: no-transform\r\n",
                                  body=b"x" * 300), "Accept-Encoding: gzip\r\n"),
        ("etag", [], resp(fields=b"Content-Type: text/plain\r\nETag: \"abc\"\r\n", body=b"x" * 300),
         "Accept-Encoding: gzip\r\n"),
        ("small-204", [], resp(b"204 No Content", fields=b"Content-Type: text/plain\r\n", body=b""),
         "Accept-Encoding: gzip\r\n"),
        ("offload", ["compression offload"], resp(fields=b"Content-Type: text/plain\r\n", body=b"x" * 300),
         "Accept-Encoding: gzip\r\n")]],
    case("compress-http10", be=["compression algo gzip", "compression type text/plain"],
         response=resp(fields=b"Content-Type: text/plain\r\n", body=b"x" * 300),
         reqs=[get(version="HTTP/1.0", fields="Accept-Encoding: gzip\r\n")], mask=[r"\r\n\r\n[\s\S]+$"]),
    # several requests on one connection
    case("pipelined-deny", fe=["http-request deny if { path /d }"], reqs=[get("/a") + get("/d") + get("/b")]),
    case("pipelined-return", fe=["http-request return status 200 content-type text/plain string r if { path /r }"],
         reqs=[get("/a") + get("/r") + get("/b")]),
    case("pipelined-redirect", fe=["http-request redirect location /x if { path /r }"],
         reqs=[get("/r") + get("/b")]),
    # errors of the request itself with errorfiles
    case("errorfile-400", fe=["errorfile 400 {dir}/e400.http"], reqs=[b"GET / HTTP/1.1\r\nHost: a\r\nBad Field\r\n\r\n"],
         files={"e400.http": b"HTTP/1.1 400 Custom\r\nContent-Length: 4\r\n\r\nbad\n"}),
    case("errorfile-501", fe=["errorfile 501 {dir}/e501.http"],
         reqs=[b"GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n"],
         files={"e501.http": b"HTTP/1.1 501 Custom\r\nContent-Length: 4\r\n\r\nnot\n"}),
    case("restrict-hdr-names-delete", fe=["option http-restrict-req-hdr-names delete"],
         reqs=[get(fields="X_A: 1\r\nX-B: 2\r\n")]),
    case("restrict-hdr-names-reject", fe=["option http-restrict-req-hdr-names reject"],
         reqs=[get(fields="X_A: 1\r\n")]),
    case("restrict-hdr-names-reject-backend", be=["option http-restrict-req-hdr-names reject"],
         reqs=[get(fields="X_A: 1\r\n")]),
    case("use-proxy-header", fe=["option http-use-proxy-header", "http-request set-header X-C %[req.hdr(connection)]"],
         reqs=[get("http://a/x", fields="Proxy-Connection: close\r\n")]),
    case("httplog-clf", fe=["option httplog clf"], mask=[r"\[[^]]+\]", r"\d+ \d+ (?=\"c)", r"\d+ \d+ (?=----)"]),
    case("tcplog-in-http", fe=["option tcplog"], mask=[r"\d+/\d+/\d+ (?=51)"]),
    case("dontlognull", fe=["option dontlognull"], reqs=[b"", get()]),
    case("map-backend", fe=["use_backend %[req.hdr(host),lower,map_dom({dir}/hosts.map,b{i})]"],
         files={"hosts.map": "example.com dyn-none\n"}, reqs=[get(fields="X: 1\r\n")]),
    case("set-map-then-use", fe=["http-request set-map({dir}/setmap.map) path str(seen) if { path_beg /set }",
                                 'http-request set-header X-M "%[path,map({dir}/setmap.map,none)]"'],
         files={"setmap.map": ""}, reqs=[get("/set1"), get("/set1")]),
    case("proc-var", fe=["http-request set-var(proc.n) int(1),add(proc.n) if { var(proc.n) -m found }",
                         "http-request set-var(proc.n) int(1) unless { var(proc.n) -m found }",
                         'http-request set-header X-N "%[var(proc.n)]"'], reqs=[get(), get(), get()]),
    case("http-err-rate", fe=["stick-table type ip size 10 store http_err_cnt,http_fail_cnt",
                              "http-request track-sc0 src", 'http-response set-header X-E "%[sc0_http_err_cnt]"'],
         response=resp(b"404 Not Found"), reqs=[get(), get()]),
    # choosing a server: several servers on the origin, the one chosen logged for each request
    *[case("balance-" + n, be=[bal] + ["server s%d 127.0.0.1:{origin}%s" % (k + 1, srv(k)) for k in range(4)],
           fe=['log-format "%s %HU"'], reqs=rq) for n, bal, srv, rq in [
        ("rr", "balance roundrobin", lambda k: "", [get()] * 6),
        ("rr-weights", "balance roundrobin", lambda k: " weight %d" % (k + 1), [get()] * 12),
        ("static-rr", "balance static-rr", lambda k: " weight %d" % (4 - k), [get()] * 12),
        ("leastconn", "balance leastconn", lambda k: "", [get()] * 5),
        ("first", "balance first", lambda k: " maxconn 2", [get()] * 3),
        ("backup", "balance roundrobin", lambda k: " backup" if k > 1 else "", [get()] * 4),
        ("backup-only", "balance roundrobin", lambda k: " backup" if k > 0 else " disabled", [get()] * 4),
        ("allbackups", "balance roundrobin\n    option allbackups",
         lambda k: " backup" if k > 0 else " disabled", [get()] * 4),
        ("uri", "balance uri", lambda k: "", URIS),
        ("uri-weights", "balance uri", lambda k: " weight %d" % (10 * k + 1), URIS),
        ("uri-consistent", "balance uri\n    hash-type consistent", lambda k: "", URIS),
        ("uri-consistent-djb2", "balance uri\n    hash-type consistent djb2", lambda k: "", URIS),
        ("uri-consistent-wt6", "balance uri\n    hash-type consistent wt6", lambda k: "", URIS),
        ("uri-consistent-crc32", "balance uri\n    hash-type consistent crc32", lambda k: "", URIS),
        ("uri-map-sdbm-avalanche", "balance uri\n    hash-type map-based sdbm avalanche", lambda k: "", URIS),
        ("uri-len-depth", "balance uri len 6 depth 2", lambda k: "", URIS),
        ("uri-whole", "balance uri whole", lambda k: "", URIS),
        ("uri-path-only", "balance uri path-only", lambda k: "", URIS),
        ("url-param", "balance url_param id", lambda k: "", [get("/?id=%d" % n) for n in range(8)] + [get("/x")]),
        ("url-param-post", "balance url_param id check_post", lambda k: "",
         [get("/p", method="POST", body=b"id=%d" % n, fields="Content-Type: application/x-www-form-urlencoded\r\n")
          for n in range(5)]),
        ("hdr", "balance hdr(X-Key)", lambda k: "", [get(fields="X-Key: k%d\r\n" % n) for n in range(8)] + [get()]),
        ("hdr-domain", "balance hdr(X-Key) use_domain_only", lambda k: "",
         [get(fields="X-Key: www.s%d.example.com\r\n" % n) for n in range(6)]),
        ("source", "balance source", lambda k: "", [get()] * 3),
        ("uri-balance-factor", "balance uri\n    hash-type consistent\n    hash-balance-factor 150", lambda k: "",
         URIS),
        ("cookie-insert", "balance roundrobin\n    cookie SRV insert indirect nocache", lambda k: " cookie c%d" % k,
         [get(), get(), get(fields="Cookie: SRV=c2\r\n"), get(fields="Cookie: SRV=c3\r\n")]),
        ("cookie-prefix", "balance roundrobin\n    cookie JS prefix", lambda k: " cookie c%d" % k,
         [get(fields="Cookie: JS=c1~abc\r\n"), get(fields="Cookie: JS=zz~abc\r\n")])]],
    # mode tcp: the client's bytes are a request the origin answers; tcplog lines
    *[case("tcp-" + n, fe=["mode tcp", 'log-format "%ci %b/%s %B %ts %[var(txn.v)]"'] + fe_, be=["mode tcp"] + be_,
           reqs=rq or [get()], top="backend none{i}\n    mode tcp\n") for n, fe_, be_, rq in [
        ("plain", [], [], None),
        ("connection-reject", ["tcp-request connection reject if { src 127.0.0.1 }"], [], None),
        ("session-reject", ["tcp-request session reject"], [], None),
        ("content-reject", ["tcp-request content reject"], [], None),
        ("inspect-payload", ["tcp-request inspect-delay 1s", "tcp-request content reject if { req.payload(0,3) -m str GET }"],
         [], [get(), get(method="PUT")]),
        ("inspect-http", ["tcp-request inspect-delay 1s",
                          "tcp-request content set-var(txn.v) req.ver if HTTP",
                          "tcp-request content accept if HTTP"], [], [get(), b"hello\r\n\r\n"]),
        ("inspect-len", ["tcp-request inspect-delay 300ms", "tcp-request content set-var(txn.v) req.len",
                         "tcp-request content accept if { req.len gt 10 }"], [], [get(), b"hi\r\n\r\n"]),
        ("capture", ["tcp-request inspect-delay 1s", "tcp-request content capture req.payload(0,3) len 3",
                     "tcp-request content set-var(txn.v) capture.req.hdr(0)",
                     "tcp-request content accept if { req.len ge 3 }"], [], None),
        ("track", ["stick-table type ip size 10 store conn_cnt,conn_cur", "tcp-request connection track-sc0 src",
                   "tcp-request content set-var(txn.v) sc0_conn_cnt"], [], [get(), get()]),
        ("switch-mode", ["tcp-request inspect-delay 1s", "tcp-request content switch-mode http if HTTP",
                         "http-request set-header X-Switched 1"], ["mode http"], None),
        ("response-reject", [], ["tcp-response inspect-delay 1s", "tcp-response content reject if { res.len gt 0 }"], None),
        ("response-accept", [], ["tcp-response inspect-delay 1s",
                                 "tcp-response content accept if { res.payload(0,4) -m str HTTP }"], None),
        ("use-backend-payload", ["tcp-request inspect-delay 1s", "tcp-request content accept if { req.len ge 3 }",
                                 "use_backend none{i} if { req.payload(0,3) -m str PUT }"], [],
         [get(method="PUT"), get()])]],
    # TLS frontends (certificates of make_certs; the client offers one version, so both ends agree on the cipher)
    *[case("tls-" + n, bind=bind, tls=tls, reqs=rq, fe=fe_ + ["http-request return content-type text/plain "
                                                              'lf-string "%s\\n"' % fetches], files=files_) for
      n, bind, tls, fetches, fe_, rq, files_ in [
        ("13-fetches", "ssl crt {dir}/a.pem", {"version": "1.3", "sni": "a.example"}, SSL_FC, [], None, None),
        ("13-chacha", "ssl crt {dir}/a.pem ciphersuites TLS_CHACHA20_POLY1305_SHA256",
         {"version": "1.3", "sni": "a.example"}, SSL_FC, [], None, None),
        ("12-fetches", "ssl crt {dir}/a.pem", {"version": "1.2", "sni": "a.example",
                                               "ciphers": "ECDHE-ECDSA-AES128-GCM-SHA256"}, SSL_FC, [], None, None),
        ("12-default", "ssl crt {dir}/a.pem", {"version": "1.2"}, SSL_FC, [], None, None),
        ("12-cbc", "ssl crt {dir}/a.pem", {"version": "1.2", "ciphers": "ECDHE-ECDSA-AES256-SHA"}, SSL_FC, [], None,
         None),
        ("12-sha384-cbc", "ssl crt {dir}/a.pem", {"version": "1.2", "ciphers": "ECDHE-ECDSA-AES256-SHA384"},
         SSL_FC, [], None, None),
        ("12-chacha", "ssl crt {dir}/a.pem", {"version": "1.2", "ciphers": "ECDHE-ECDSA-CHACHA20-POLY1305"},
         SSL_FC, [], None, None),
        ("no-sni", "ssl crt {dir}/a.pem", {"version": "1.3"}, SSL_FC, [], None, None),
        ("alpn", "ssl crt {dir}/a.pem alpn h2,http/1.1", {"version": "1.3", "alpn": ["http/1.1"]}, SSL_FC, [], None,
         None),
        ("alpn-no-overlap", "ssl crt {dir}/a.pem alpn http/1.1", {"version": "1.3", "alpn": ["spdy/3"]}, SSL_FC, [],
         None, None),
        ("f-fetches", "ssl crt {dir}/a.pem", {"version": "1.3"}, SSL_F, [], None, None),
        ("sni-b", "ssl crt {dir}/a.pem crt {dir}/b.pem", {"version": "1.3", "sni": "b.example"},
         "%[ssl_f_s_dn] %[ssl_fc_sni]", [], None, None),
        ("sni-unknown", "ssl crt {dir}/a.pem crt {dir}/b.pem", {"version": "1.3", "sni": "c.example"},
         "%[ssl_f_s_dn] %[ssl_fc_sni]", [], None, None),
        ("sni-case", "ssl crt {dir}/a.pem crt {dir}/b.pem", {"version": "1.3", "sni": "B.Example"},
         "%[ssl_f_s_dn] %[ssl_fc_sni] %[ssl_fc_sni,lower]", [], None, None),
        ("crt-list", "ssl crt-list {dir}/list{i}.txt", {"version": "1.3", "sni": "www.b.example"},
         "%[ssl_f_s_dn] %[ssl_fc_sni] %[ssl_fc_alpn]", [], None,
         {"list{i}.txt": "{dir}/a.pem\n{dir}/b.pem [alpn http/1.1] *.b.example\n"}),
        *[("crt-list-" + n, "ssl crt-list {dir}/opts{i}.txt", tls_, "%[ssl_f_s_dn(CN)] %[ssl_fc_protocol] %[ssl_c_used]",
           [], None, {"opts{i}.txt": "{dir}/a.pem [ssl-min-ver TLSv1.3] a.example\n"
                                     "{dir}/b.pem [verify required ca-file {dir}/ca.pem] b.example\n"}) for n, tls_ in [
            ("min-ver-refused", {"version": "1.2", "sni": "a.example"}),
            ("min-ver-ok", {"version": "1.3", "sni": "a.example"}),
            ("verify-refused", {"version": "1.3", "sni": "b.example"}),
            ("verify-ok", {"version": "1.3", "sni": "b.example", "cert": True}),
            ("default-line", {"version": "1.2", "sni": "c.example"}),
            ("default-no-sni", {"version": "1.2"})]],
        *[("crt-list-verify-" + n, "ssl crt-list {dir}/verify{i}.txt", tls_, "%[ssl_f_s_dn(CN)] %[ssl_c_used]", [], None,
           {"verify{i}.txt": "{dir}/b.pem [verify required ca-file {dir}/ca.pem] b.example\n{dir}/a.pem a.example\n"})
          for n, tls_ in [("default", {"version": "1.3", "sni": "c.example"}), ("named", {"version": "1.3", "sni": "b.example"}),
                          ("other", {"version": "1.3", "sni": "a.example"})]],
        ("client-cert", "ssl crt {dir}/a.pem ca-file {dir}/ca.pem verify optional", {"version": "1.3", "cert": True},
         SSL_C, [], None, None),
        ("client-cert-12", "ssl crt {dir}/a.pem ca-file {dir}/ca.pem verify optional",
         {"version": "1.2", "cert": True}, SSL_C, [], None, None),
        ("client-no-cert", "ssl crt {dir}/a.pem ca-file {dir}/ca.pem verify optional", {"version": "1.3"},
         SSL_C, [], None, None),
        ("client-cert-unasked", "ssl crt {dir}/a.pem", {"version": "1.3", "cert": True}, SSL_C, [], None, None),
        *[("client-" + who + "-" + n, "ssl crt {dir}/a.pem ca-file {dir}/ca.pem verify optional" + opts,
           {"version": "1.3", "cert": who}, SSL_C, [], None, None) for who in ("stranger", "selfie") for n, opts in [
            ("strict", ""), ("ca-ignore", " ca-ignore-err all"), ("ca-ignore-20", " ca-ignore-err 20,21"),
            ("both-ignore", " ca-ignore-err all crt-ignore-err all")]],
        *[("crl-" + n, "ssl crt {dir}/a.pem ca-file {dir}/ca.pem verify optional crl-file {dir}/crl.pem" + opts,
           {"version": v, "cert": who}, SSL_C, [], None, None) for n, opts, v, who in [
            ("revoked", "", "1.3", "revoked"), ("revoked-12", "", "1.2", "revoked"), ("valid", "", "1.3", True),
            ("revoked-ignored", " crt-ignore-err 23", "1.3", "revoked"),
            ("revoked-ignored-all", " crt-ignore-err all", "1.3", "revoked"), ("no-cert", "", "1.3", False)]],
        ("client-stranger-12", "ssl crt {dir}/a.pem ca-file {dir}/ca.pem verify optional ca-ignore-err all",
         {"version": "1.2", "cert": "stranger"}, SSL_C, [], None, None),
        ("client-stranger-required", "ssl crt {dir}/a.pem ca-file {dir}/ca.pem verify required ca-ignore-err all",
         {"version": "1.3", "cert": "stranger"}, SSL_C, [], None, None),
        ("client-cert-verify-none", "ssl crt {dir}/a.pem ca-file {dir}/ca.pem verify none",
         {"version": "1.3", "cert": "stranger"}, SSL_C, [], None, None),
        ("cipherlist", "ssl crt {dir}/a.pem", {"version": "1.2", "ciphers": "ECDHE-ECDSA-AES128-GCM-SHA256:AES128-SHA"},
         "%[ssl_fc_cipherlist_str] %[ssl_fc_cipherlist_hex] %[ssl_fc_protocol_hello_id]", [], None, None),
        *[("resume-" + n, "ssl crt {dir}/a.pem" + bind_, dict(resume=True, **tls_),
           "%[ssl_fc_is_resumed] %[ssl_fc_protocol] %[ssl_fc_has_crt] %[ssl_c_used] %[ssl_c_verify]", [],
           [get(), get(), get()], None) for n, bind_, tls_ in [
            ("13", "", {"version": "1.3"}), ("12", "", {"version": "1.2"}),
            ("12-no-tickets", " no-tls-tickets", {"version": "1.2"}),
            ("13-no-tickets", " no-tls-tickets", {"version": "1.3"}),
            ("13-client-cert", " ca-file {dir}/ca.pem verify optional", {"version": "1.3", "cert": True}),
            ("12-client-cert", " ca-file {dir}/ca.pem verify optional", {"version": "1.2", "cert": True})]],
        ("forwarded-proto", "ssl crt {dir}/a.pem", {"version": "1.3"}, "%[req.hdr(x-forwarded-proto)]",
         ["http-request set-header X-Forwarded-Proto https if { ssl_fc }"], None, None),
        ("redirect-scheme", "ssl crt {dir}/a.pem", {"version": "1.3"}, "%[ssl_fc]",
         ["http-request redirect scheme https unless { ssl_fc }"], None, None)]],
    *[case("tls-" + n, bind=bind, tls=tls, fe=fe_, reqs=rq, mask=[r"\d+/\d+/\d+/\d+/\d+(?= \d)"]) for
      n, bind, tls, fe_, rq in [
        ("httpslog", "ssl crt {dir}/a.pem", {"version": "1.3", "sni": "a.example"}, ["option httpslog"], None),
        ("httpslog-12", "ssl crt {dir}/a.pem", {"version": "1.2", "ciphers": "ECDHE-ECDSA-AES128-SHA"},
         ["option httpslog"], None),
        ("strict-sni-none", "ssl crt {dir}/a.pem strict-sni", {"version": "1.3"}, [], None),
        ("strict-sni-unknown", "ssl crt {dir}/a.pem strict-sni", {"version": "1.3", "sni": "c.example"}, [], None),
        ("strict-sni-known", "ssl crt {dir}/a.pem strict-sni", {"version": "1.3", "sni": "a.example"}, [], None),
        ("verify-required-none", "ssl crt {dir}/a.pem ca-file {dir}/ca.pem verify required", {"version": "1.3"}, [],
         None),
        ("verify-required-none-12", "ssl crt {dir}/a.pem ca-file {dir}/ca.pem verify required", {"version": "1.2"},
         [], None),
        ("verify-required-ok", "ssl crt {dir}/a.pem ca-file {dir}/ca.pem verify required",
         {"version": "1.3", "cert": True}, [], None),
        ("min-ver", "ssl crt {dir}/a.pem ssl-min-ver TLSv1.3", {"version": "1.2"}, [], None),
        ("max-ver", "ssl crt {dir}/a.pem ssl-max-ver TLSv1.2", {"version": "1.3"}, [], None),
        ("plain-to-tls", "ssl crt {dir}/a.pem", None, [], [get()]),
        ("partial-hello", "ssl crt {dir}/a.pem", None, [], [b"\x16\x03\x01\x00\xc8\x01\x00\x00\xc4\x03\x03"]),
        ("empty-close", "ssl crt {dir}/a.pem", None, [], [b""]),
        ("httpslog-error", "ssl crt {dir}/a.pem", None, ["option httpslog"], [get()])]],
    # TLS to servers: this script's TLS origin ({tlsorigin}: a.example's certificate, signed by the CA; for the name
    # revoked.example, a certificate crl.pem revokes) records the
    # name each proxy sent (SNI) and the protocol ALPN chose. (Whether a later connection resumes the session is
    # compared with no-ssl-reuse only: haproxy keeps its server sessions per thread, and two threads take turns.)
    *[case("srv-tls-" + n, be=["server s1 127.0.0.1:%s %s" % (port, opts)] + be_, reqs=rq or [get()], first=4,
           mask=[r"^\x16\x03[\s\S]*"]) for
      n, port, opts, be_, rq in [
        ("verify-none", "{tlsorigin}", "ssl verify none", [], None),
        ("sni", "{tlsorigin}", "ssl verify none sni str(a.example)", [], None),
        ("sni-host", "{tlsorigin}", "ssl verify none sni req.hdr(host)", [], [get(fields="X: 1\r\n").replace(
            b"Host: a", b"Host: www.a.example")]),
        ("alpn", "{tlsorigin}", "ssl verify none alpn http/1.1", [], None),
        ("alpn-other", "{tlsorigin}", "ssl verify none alpn h2x,http/1.1", [], None),
        ("verify-ca", "{tlsorigin}", "ssl verify required ca-file {dir}/ca.pem", [], None),
        ("verify-ca-sni", "{tlsorigin}", "ssl verify required ca-file {dir}/ca.pem sni str(a.example)", [], None),
        ("verify-ca-wrong-sni", "{tlsorigin}", "ssl verify required ca-file {dir}/ca.pem sni str(b.example)", [],
         None),
        ("verifyhost", "{tlsorigin}", "ssl verify required ca-file {dir}/ca.pem verifyhost a.example", [], None),
        ("verifyhost-wrong", "{tlsorigin}", "ssl verify required ca-file {dir}/ca.pem verifyhost c.example", [], None),
        ("verify-wrong-ca", "{tlsorigin}", "ssl verify required ca-file {dir}/b.crt", [], None),
        ("verify-other-ca", "{tlsorigin}", "ssl verify required ca-file {dir}/other-ca.pem", [], None),
        ("crl-revoked", "{tlsorigin}", "ssl verify required ca-file {dir}/ca.pem crl-file {dir}/crl.pem "
                                      "sni str(revoked.example)", [], None),
        ("crl-valid", "{tlsorigin}", "ssl verify required ca-file {dir}/ca.pem crl-file {dir}/crl.pem sni str(a.example)",
         [], None),
        ("revoked-no-crl", "{tlsorigin}", "ssl verify required ca-file {dir}/ca.pem sni str(revoked.example)", [], None),
        ("max-ver", "{tlsorigin}", "ssl verify none ssl-max-ver TLSv1.2", [], None),
        ("bc-fetches", "{tlsorigin}", "ssl verify none alpn http/1.1",
         ['http-response set-header X-Bc "%[ssl_bc] %[ssl_bc_protocol] %[ssl_bc_cipher] %[ssl_bc_alpn] '
          '%[ssl_bc_use_keysize] %[ssl_bc_alg_keysize]"'], None),
        ("bc-fetches-12", "{tlsorigin}", "ssl verify none ssl-max-ver TLSv1.2 ciphers ECDHE-ECDSA-AES128-GCM-SHA256",
         ['http-response set-header X-Bc "%[ssl_bc] %[ssl_bc_protocol] %[ssl_bc_cipher]"'], None),
        ("no-reuse", "{tlsorigin}", "ssl verify none no-ssl-reuse",
         ['http-response set-header X-Bc "%[ssl_bc_is_resumed]"'], [get(), get()]),
        ("mute-server", "{mute}", "ssl verify none", ["retries 1", "timeout connect 1s"], None),
        ("to-tls-plainly", "{tlsorigin}", "", [], None)]],
    # SNI routing in mode tcp, the ClientHello read by the rules (the client's handshake is never answered)
    *[case("tcp-ssl-" + n, tls={"version": "1.3", "sni": "b.example"}, top="backend none{i}\n    mode tcp\n",
           fe=["mode tcp", 'log-format "%[var(sess.sni)] %[var(sess.ver)] %[var(sess.ht)] %b %ts"',
               "tcp-request inspect-delay 2s", "tcp-request content set-var(sess.sni) req.ssl_sni",
               "tcp-request content set-var(sess.ver) req.ssl_ver",
               "tcp-request content set-var(sess.ht) req.ssl_hello_type"] + fe_, be=["mode tcp"]) for n, fe_ in [
        ("reject", ["tcp-request content reject if { req.ssl_hello_type 1 }"]),
        ("route", ["tcp-request content accept if { req.ssl_hello_type 1 }",
                   "use_backend none{i} if { req.ssl_sni -i b.example }"]),
        ("route-end", ["tcp-request content accept if { req_ssl_sni -m end .example }", "use_backend none{i}"])]],
    # common recipes
    case("rate-limit", fe=["stick-table type ip size 10 expire 10s store http_req_rate(10s)",
                           "http-request track-sc0 src",
                           "http-request deny deny_status 429 if { sc_http_req_rate(0) gt 2 }"], reqs=[get()] * 5),
    case("gpc-block", fe=["stick-table type ip size 10 store gpc0", "http-request track-sc0 src",
                          "http-request sc-inc-gpc0(0) if { path /bad }",
                          "http-request deny if { sc0_get_gpc0 gt 1 }"],
         reqs=[get("/bad"), get("/ok"), get("/bad"), get("/ok")]),
    case("acl-file", fe=["acl blocked src -f {dir}/blocked.lst", "acl api path_beg -i /API /v2",
                         "acl re path_reg ^/r/[0-9]+$",
                         "http-request deny if blocked api", "http-request set-header X-Re 1 if re"],
         files={"blocked.lst": "# list\n10.0.0.0/8\n127.0.0.1\n"}, reqs=[get("/api/x"), get("/V2"), get("/r/12")]),
    case("json-return", fe=["http-request return status 200 content-type application/json "
                            "lf-string '{\"ip\":\"%[src]\",\"path\":\"%[path]\"}'"], reqs=[get("/p?q")]),
    case("hsts", fe=['http-response set-header Strict-Transport-Security "max-age=63072000; includeSubDomains"']),
    case("host-regsub", fe=["http-request set-header Host %[req.hdr(host),regsub(:.*$,)]"],
         reqs=[get(fields="X: 1\r\n").replace(b"Host: a", b"Host: a:8080")]),
    case("path-map-backend", fe=["use_backend %[path,map_beg({dir}/paths.map,b{i})]"],
         files={"paths.map": "/none dyn-nothing\n"}, reqs=[get("/x")]),
    case("var-scopes", fe=["http-request set-var(sess.n) var(sess.n),add(1) if { var(sess.n) -m found }",
                           "http-request set-var(sess.n) int(1) unless { var(sess.n) -m found }",
                           "http-request set-var(txn.t) str(t)",
                           'http-request set-header X-V "%[var(sess.n)]-%[var(txn.t)]-%[var(req.r)]"'],
         reqs=[get() + get() + get()]),
    case("prometheus", fe=["http-request use-service prometheus-exporter if { path /metrics }"],
         reqs=[get("/metrics?scope=global")], mask=[r"\r\n\r\n[\s\S]+$"]),
    case("stats-auth", fe=["stats enable", "stats uri /st", "stats auth u:p", "stats realm Stats"],
         reqs=[get("/st"), get("/st", fields="Authorization: Basic dTpw\r\n")],
         mask=[r"\r\n\r\n[\s\S]+$", r"content-length: \d+", r"\d+ \+?\d+ (?=- -)"]),
    case("use-backend-dynamic", fe=["use_backend %[req.hdr(x-be)]"], top="backend dyn{i}\n    server s 127.0.0.1:1\n",
         reqs=[get(fields="X-Be: nope\r\n")]),
    case("no-backend", fe=["http-request set-header X 1"], reqs=[get()]),
]

KNOWN = {
    "stats-auth": "the stats page's 401 logged 401, the connection kept; haproxy logs 400 and closes (differences.md, "
                  "Stats page)",
    "tcp-session-reject": "timing: haproxy runs the session rules before the request arrives and closes with a FIN; "
                          "Fulcrum's come later, the unread request makes the kernel reset (as haproxy's own would)",
    "tls-13-chacha": "BoringSSL's TLS 1.3 suites cannot be chosen: ciphersuites is checked, a warning says it asks for "
                     "fewer (differences.md, TLS)",
    "srv-tls-verify-ca-wrong-sni": "a server certificate that does not match the sni name: haproxy 2.6 answers 503 at "
                                   "once, counting its retries without connecting again; Fulcrum retries as after any "
                                   "failed handshake (differences.md, TLS)",
    "tls-resume-13-no-tickets": "BoringSSL resumes TLS 1.3 from tickets only: with no-tls-tickets nothing resumes "
                                "(differences.md, TLS)",
    "tls-12-sha384-cbc": "BoringSSL has no SHA-384 CBC suites (differences.md, TLS)",
    "use-proxy-header": "Proxy-Connection is a hop-by-hop field, removed (http1-strictness.md)",
    "response-del-content-length": "rules do not change a message's framing (differences.md, HTTP/1)",
    "response-set-te": "rules do not change a message's framing; haproxy sends both fields (differences.md, HTTP/1)",
}


class Proxy:
    def __init__(self, name, cmd, base, first_fe, tmp, cases):
        self.name = name
        self.dir = tmp
        def context(pem):
            t = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            t.load_cert_chain(os.path.join(tmp, pem))
            t.set_alpn_protocols(["http/1.1"])
            return t
        tls, revoked = context("a.pem"), context("srv-revoked.pem")
        self.origins = [h1diff.Origin(base), h1diff.Origin(base + 4, tls)]
        noted = tls.sni_callback  # (the origin's: it records the name)

        def by_name(conn, name, ctx):  # revoked.example gets the revoked certificate
            noted(conn, name, ctx)
            if name == "revoked.example":
                conn.context = revoked
        tls.sni_callback = by_name
        self.mute = socket.socket()  # {mute}: connections complete in its backlog, nothing ever answers
        self.mute.bind(("127.0.0.1", base + 5))
        self.mute.listen(64)
        for o in self.origins:
            o.start()
        self.syslog = h1diff.Syslog(base + 1)
        self.syslog.start()
        self.ports = {}
        out = [f"""global
    log 127.0.0.1:{base + 1} format raw local0
    expose-experimental-directives
    tune.ssl.capture-buffer-size 1024
defaults
    mode http
    log global
    option httplog
    timeout connect 2s
    timeout client 3s
    timeout server 3s
    timeout http-request 3s
    timeout http-keep-alive 2s
"""]
        for i, c in enumerate(cases):
            port = first_fe + i
            self.ports[c["name"]] = port

            def fill(s, i=i):
                return s.replace("{i}", str(i)).replace("{dir}", tmp)
            out.append(fill(c["top"]))
            out.append(f"frontend c{i}\n    bind 127.0.0.1:{port} {fill(c['bind'])}\n")
            out.extend("    %s\n" % fill(x) for x in c["fe"])
            out.append(f"    default_backend b{i}\nbackend b{i}\n    http-reuse never\n")
            out.extend("    %s\n" % fill(x).replace("{origin}", str(base)).replace("{tlsorigin}", str(base + 4))
                       .replace("{mute}", str(base + 5))
                       for x in c["be"])
            if not any(x.startswith("server ") for x in c["be"]):
                out.append(f"    server s1 127.0.0.1:{base}\n")
        self.proc, self.out = start(name, cmd, tmp, "".join(out))
        try:
            for port in (first_fe, first_fe + len(cases) - 1):
                wait_listening(port, self.proc)
        except BaseException:
            self.stop()
            raise

    def run(self, c):
        for o in self.origins:
            o.resp, o.close_after = c["response"], False
        results = []
        tls = tls_context(c["tls"], self.dir) if c["tls"] is not None else None
        session = None
        for req in c["reqs"]:
            for o in self.origins:
                with o.lock:
                    o.conns.clear()
            nlog = len(self.syslog.lines)
            s = socket.create_connection(("127.0.0.1", self.ports[c["name"]]))
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            try:
                if tls is not None:
                    s = tls.wrap_socket(s, server_hostname=c["tls"].get("sni"),
                                        session=session if c["tls"].get("resume") else None)
                s.sendall(req)
                got, closed = h1diff.receive(s, 0.3, 5, first=c["first"])
                if tls is not None:
                    session = s.session
            except ConnectionResetError:
                got, closed = b"", "reset"  # (already: a connection refused at once)
            except ssl.SSLError as e:  # the handshake failed: the alert the client got
                got, closed = ("<tls: %s>" % e.reason).encode(), True
            s.close()
            time.sleep(0.2)
            server = []
            for o in self.origins:
                with o.lock:
                    server += [bytes(x) for x in o.conns]
            logs = [h1diff.norm_log(line) for line in self.syslog.lines[nlog:]]
            results.append(masked(dict(client=got, closed=closed, server=server, logs=logs), c["mask"]))
        return results

    def stop(self):
        stop(self.proc, self.out)


def masked(r, masks):
    for m in masks:
        rx, brx = re.compile(m), re.compile(m.encode())
        r["client"] = brx.sub(b"MASK", r["client"])
        r["server"] = [brx.sub(b"MASK", x) for x in r["server"]]
        r["logs"] = [rx.sub("MASK", x) for x in r["logs"]]
    return r


def compare(f, h):
    diffs = []
    for n, (fr, hr) in enumerate(zip(f, h)):
        tag = "" if len(f) == 1 else "#%d " % n
        for what in ("client", "closed", "server", "logs"):
            if fr[what] != hr[what]:
                diffs.append((tag + what, fr[what], hr[what]))
    return diffs


def main():
    a = h1diff.arguments(16000)
    cases = [c for c in CASES if not a.only or re.search(a.only, c["name"])]
    names = collections.Counter(c["name"] for c in CASES)
    assert max(names.values()) == 1, [n for n, k in names.items() if k > 1]
    tmp = tempfile.mkdtemp(prefix="rulesdiff-")
    make_certs(tmp)
    for i, c in enumerate(cases):
        for fname, content in c["files"].items():
            with open(os.path.join(tmp, fname.replace("{i}", str(i))), "wb") as f:
                f.write(content if isinstance(content, bytes) else content.replace("{dir}", tmp).encode())
    f = Proxy("fulcrum", [os.path.join(HOME, "bin/fulcrum")], a.port, a.port + 10, tmp, cases)
    try:
        h = Proxy("haproxy", [a.haproxy], a.port + 2, a.port + 10 + len(cases), tmp, cases)
    except BaseException:
        f.stop()
        raise
    counts = collections.Counter()
    try:
        for c in cases:
            fr, hr = h1diff.both(f, h, c)
            diffs = compare(fr, hr)
            detail = [(h1diff.statuses(r["client"]), r["logs"]) for r in hr]
            counts[h1diff.report(c["name"], diffs, KNOWN, a.v, detail)] += 1
    finally:
        f.stop()
        h.stop()
    return h1diff.summary(counts, tmp)


if __name__ == "__main__":
    sys.exit(main())
