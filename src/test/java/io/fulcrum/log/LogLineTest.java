package io.fulcrum.log;

import io.fulcrum.Modules;
import io.fulcrum.cfg.ConfigException;
import io.fulcrum.cfg.Registry;
import io.fulcrum.http.HttpHeaders;
import io.fulcrum.http.RequestHead;
import io.fulcrum.http.ResponseHead;
import io.fulcrum.sample.ExprParser;
import io.fulcrum.sample.SampleCatalog;
import io.fulcrum.sample.StageSet;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Log lines of a transaction, compared with what HAProxy 2.6 wrote for the same formats and requests
 * (captured with a UDP listener; times, ports and pids aside).
 */
class LogLineTest {
    @TempDir
    Path dir;

    private final LogFormatParser parser = new LogFormatParser(new ExprParser(SampleCatalog.of(Registry.of(Modules.ALL))));
    private TestTransaction t;

    @BeforeEach
    void transaction() {
        t = new TestTransaction(dir, """
                frontend fe
                    mode http
                    bind 127.0.0.1:8202
                    unique-id-format %{+X}o\\ %ci:%cp_%fi:%fp
                    capture request header Host len 10
                    capture request header User-Agent len 30
                    capture response header X-Srv len 2
                    capture response header Nope len 2
                    default_backend be
                backend be
                    mode http
                    server s1 127.0.0.1:8101
                """);
    }

    @AfterEach
    void close() {
        t.close();
    }

    private void exchange(String uri, String userAgent) {
        HttpHeaders req = new HttpHeaders();
        req.add("host", "127.0.0.1:8202");
        req.add("user-agent", userAgent);
        t.request = new RequestHead(new AsciiString("GET"), new AsciiString(uri), 11, req);
        t.log.requestHead(t.request);
        t.chosen = t.backend;
        t.assignServer();
        HttpHeaders res = new HttpHeaders();
        res.add("x-srv", "abc");
        t.response = new ResponseHead(11, 200, new AsciiString("OK"), res);
        t.log.responseHead(t.response);
        t.log.bytesOut(128);
        t.log.bytesIn(92);
        t.log.end();
    }

    private String line(String format) throws Exception {
        return t.line(parser, format);
    }

    @Test
    void spacesSeparateFieldsAndMerge() throws Exception {
        exchange("/a", "Mo \"z\" #\\ |{}]");
        // HAProxy: "x {abc} y{abc} {Mo #22z#22 #23\ #7C#7B#7D]} z ..." (no space at the start, one at the end)
        assertThat(line("   x  %hs   y%hs  %hr z %{+Q}hr %hrl  %{+E}hr  ")).isEqualTo(
                "x {ab|} y{ab|} {127.0.0.1:|Mo #22z#22 #23\\ #7C#7B#7D]} z \"{127.0.0.1:|Mo #22z#22 #23\\ #7C#7B#7D]}\" "
                        + "127.0.0.1: Mo #22z#22 #23\\ #7C#7B#7D] {127.0.0.1:|Mo #22z#22 #23\\\\ #7C#7B#7D\\]} ");
        // An empty field leaves one separator, not two.
        assertThat(line("a %hs %hs b")).isEqualTo("a {ab|} {ab|} b");
    }

    /** As haproxy 2.6: %HPO is the path of an origin form or of an absolute URI, nothing for "*" or any other form. */
    @Test
    void thePathOnlyOfEachFormOfUri() throws Exception {
        String[][] cases = {
            {"*", "HP=* HPO= HQ= HU=*"},
            {"http://h", "HP=http://h HPO= HQ= HU=http://h"},
            {"http://h/p/q?x=1", "HP=http://h/p/q HPO=/p/q HQ=?x=1 HU=http://h/p/q?x=1"},
            {"h/x", "HP=h/x HPO= HQ= HU=h/x"},
        };
        for (String[] c : cases) {
            exchange(c[0], "Mozil");
            assertThat(line("HP=%HP HPO=%HPO HQ=%HQ HU=%HU")).as(c[0]).isEqualTo(c[1]);
        }
    }

    @Test
    void httpVariablesAsHaproxyWritesThem() throws Exception {
        exchange("/a/b?c=1", "Mozil");
        assertThat(line("r=%r HM=%HM HU=%HU HP=%HP HPO=%HPO HQ=%HQ HV=%HV ST=%ST B=%B U=%U ts=%ts tsc=%tsc CC=%CC CS=%CS "
                + "sslc=%sslc sslv=%sslv f=%f ft=%ft b=%b s=%s sq=%sq bq=%bq rc=%rc")).isEqualTo(
                "r=GET /a/b?c=1 HTTP/1.1 HM=GET HU=/a/b?c=1 HP=/a/b HPO=/a/b HQ=?c=1 HV=HTTP/1.1 ST=200 B=128 U=92 ts=-- tsc=---- "
                        + "CC=- CS=- sslc=- sslv=- f=fe ft=fe b=be s=s1 sq=0 bq=0 rc=0");
        assertThat(line("hr=%hr hrl=%hrl hs=%hs hsl=%hsl")).isEqualTo("hr={127.0.0.1:|Mozil} hrl=127.0.0.1: Mozil hs={ab|} hsl=ab -");
        assertThat(line("%{+Q}r %{+Q}hrl %{+Q}s %{+Q}ci %{+Q}ST %{+X}ci %{+X}cp %{+X}ST %{+Q}ts %{+E}r")).isEqualTo(
                "\"GET /a/b?c=1 HTTP/1.1\" \"127.0.0.1:\" \"Mozil\" \"s1\" \"127.0.0.1\" 200 7F000001 C1B4 200 -- GET /a/b?c=1 HTTP/1.1");
        assertThat(line("%{+Q}o %b %s %{-Q}f %{+Q}[int(3)] %{+X}[int(30)] %CC %hsl")).isEqualTo(
                "\"be\" \"s1\" fe \"3\" \"30\" \"\" \"ab\" \"\"");
        assertThat(line("ID=%ID %[unique-id]")).isEqualTo("ID=7F000001:C1B4_7F000001:200A 7F000001:C1B4_7F000001:200A");
    }

    @Test
    void uriCharactersAreEncoded() throws Exception {
        exchange("/a\"b#c\u0001", "x");
        assertThat(line("%r %{+Q}HU")).isEqualTo("GET /a#22b#23c#01 HTTP/1.1 \"/a#22b#23c#01\"");
    }

    /**
     * HAProxy 2.6 (LOG_OPT_HTTP): the samples of HTTP rules' values have their control characters but HTAB, and
     * DEL, written "%XX"; log lines and other rule values (TCP rules, set-var-fmt) keep them as they are.
     */
    @Test
    void httpRuleValuesEncodeControlCharacters() throws Exception {
        exchange("/", "x");
        String format = "<%[str(a%01b%09c%0Ad%7Fe%C3%A9%25),url_dec]> %{+Q}[str(%0D),url_dec] %{+Q,+E}[str(%22%0D),url_dec] %[str(%0A)]";
        // no quotes there: HAProxy's HTTP encoding ignores +Q (and keeps +E)
        assertThat(parser.forHttpRules(w -> { }).parse(format, (StageSet) null, false, false).format(t))
                .isEqualTo("<a%01b\tc%0Ad%7Fe\u00c3\u00a9%> %0D \\\"%0D %0A");
        assertThat(parser.parse(format, (StageSet) null, false, false).format(t))
                .isEqualTo("<a\u0001b\tc\nd\u007fe\u00c3\u00a9%> \"\r\" \"\\\"\r\" %0A");
        // set-var-fmt: HAProxy parses it without the encoding, in HTTP rules too
        assertThat(parser.forHttpRules(w -> { }).parseUnencoded(format, null).format(t))
                .isEqualTo("<a\u0001b\tc\nd\u007fe\u00c3\u00a9%> \"\r\" \"\\\"\r\" %0A");
        assertThat(line(format)).isEqualTo("<a\u0001b\tc\nd\u007fe\u00c3\u00a9%> \"\r\" \"\\\"\r\" %0A");
    }

    /** HAProxy 2.6 warns of a layer-6 fetch in the value of an HTTP rule (and still evaluates it), not elsewhere. */
    @Test
    void layer6FetchesInHttpRuleValuesAreWarnedOf() throws Exception {
        java.util.List<String> warnings = new java.util.ArrayList<>();
        LogFormatParser http = parser.forHttpRules(warnings::add);
        http.parse("x %[req.len] y %[path] %[req.payload(0,3),hex]", (StageSet) null, false, false);
        assertThat(warnings).containsExactly("L6 sample fetch <req.len] y %[path] %[req.payload(0,3),hex]> ignored in HTTP log-format string.",
                "L6 sample fetch <req.payload(0,3),hex]> ignored in HTTP log-format string.");
        warnings.clear();
        http.parseUnencoded("%[req.len]", null);
        http.parse("%[req.hdr(x)]", (StageSet) null, false, false);
        assertThat(warnings).isEmpty();
    }

    /** HAProxy 2.6 (lf_text_len): in log lines an empty sample is "-" as a missing one is, or "" when quoted. */
    @Test
    void emptySamplesAreDashes() throws Exception {
        exchange("/", "x");
        assertThat(line("a%[str(),bytes(0)]b %[var(txn.none)] %{+Q}[str(),bytes(0)] %[str(x),bytes(1)]")).isEqualTo("a-b - \"\" -");
        assertThat(parser.parse("a%[str(),bytes(0)]b %{+Q}[str(),bytes(0)] %{+Q}[var(txn.none)] %[var(txn.none)].", (StageSet) null, false, false)
                .format(t)).isEqualTo("ab \"\" \"\" .");
    }

    @Test
    void badRequest() throws Exception {
        t.log.badRequest();
        t.log.error('P', 'R');
        t.log.status(400);
        t.log.end();
        // HAProxy: 'fe/<NOSRV> -1/-1/-1/-1/0 400 0 - - PR-- ... "<BADREQ>"'
        assertThat(line("%b/%s %TR/%Tw/%Tc/%Tr %ST %B %CC %CS %tsc %{+Q}r %hr %hs %ID %HM %si:%sp")).isEqualTo(
                "fe/<NOSRV> -1/-1/-1/-1 400 0 - - PR-- \"<BADREQ>\" - <BADREQ> -:-");
    }

    @Test
    void dates() throws Exception {
        exchange("/", "x");
        ZonedDateTime at = ZonedDateTime.ofInstant(java.time.Instant.ofEpochMilli(1_233_922_454_655L), ZoneId.systemDefault());
        String local = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss", Locale.ROOT).format(at);
        String offset = DateTimeFormatter.ofPattern("xx", Locale.ROOT).format(at);
        assertThat(line("%t %T %Tl %ms %Ts %{+X}Ts")).isEqualTo(local + ".655 06/Feb/2009:12:14:14 +0000 " + local + " " + offset
                + " 655 1233922454 498C2996");
    }

    @Test
    void timersOfAQuickExchange() throws Exception {
        exchange("/", "x");
        assertThat(line("%Th %Ti %TR %Tw %Tc %Tq")).matches("0 \\d+ \\d+ \\d+ -1 \\d+");
        assertThat(line("%Tr %Ta %Tt %Td %Tu")).matches("-1 \\d+ \\d+ -1 \\d+"); // no server: no data phase
    }

    /** The state of the first error, from what happened before it; a refused response head leaves Tr at -1 (HAProxy's PH). */
    @Test
    void terminationStates() throws Exception {
        t.request = new RequestHead(new AsciiString("GET"), new AsciiString("/"), 11, new HttpHeaders());
        t.log.requestHead(t.request);
        t.chosen = t.backend;
        t.assignServer();
        assertThat(t.backend.streams().current()).isEqualTo(1);
        t.log.connected(new io.netty.channel.embedded.EmbeddedChannel());
        t.log.responseHead(new ResponseHead(11, 200, new AsciiString("OK"), new HttpHeaders()));
        t.log.error('P');
        t.log.error('C'); // only the first one counts
        t.log.end();
        assertThat(t.backend.streams().current()).isZero();
        assertThat(t.server.streams().current()).isZero();
        assertThat(line("%tsc %Tr")).isEqualTo("PH-- -1");
    }

    @Test
    void parseErrorsAsHaproxyWordsThem() {
        assertThatThrownBy(() -> parser.parseLogLine("%r", false)).isInstanceOf(ConfigException.class)
                .hasMessage("format variable 'r' is reserved for HTTP mode");
        assertThatThrownBy(() -> parser.parseLogLine("a%", true)).hasMessage("truncated line after '%'");
        assertThatThrownBy(() -> parser.parseLogLine("%{+Q", true)).hasMessage("truncated line after '+Q'");
        assertThatThrownBy(() -> parser.parseLogLine("%{+Q}/", true)).hasMessage("parse argument modifier without variable name near '%{+Q}'");
        assertThatThrownBy(() -> parser.parseLogLine("%[str(x)", true)).hasMessage("missing ']' after 'str(x)'");
        assertThatThrownBy(() -> parser.parseLogLine("%[str(x)lower]", true)).hasMessage("expected ']' after 'str(x)', but found 'l'");
        assertThatThrownBy(() -> parser.parseLogLine("%Zz", true)).hasMessage(
                "no such format variable 'Zz'. If you wanted to emit the '%' character verbatim, you need to use '%%'");
    }

    @Test
    void unknownFlagsAreIgnored() throws Exception {
        exchange("/", "x");
        assertThat(line("%{+Z}HM %{+Q,-Q}HM")).isEqualTo("GET GET");
    }
}
