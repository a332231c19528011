package io.fulcrum.check;

import io.fulcrum.check.CheckRule.Connect;
import io.fulcrum.runtime.BufferOwner;
import io.fulcrum.check.CheckRule.Expect;
import io.fulcrum.check.CheckRule.HttpSend;
import io.fulcrum.check.CheckRule.Send;
import io.fulcrum.backend.Backend;
import io.fulcrum.conn.NativeOptions;
import io.fulcrum.conn.NetNamespace;
import io.fulcrum.conn.ProxyHeader;
import io.fulcrum.conn.Socks4;
import io.fulcrum.conn.SourceAddress;
import io.fulcrum.runtime.EventLoops;
import io.fulcrum.sample.Sample;
import io.fulcrum.server.Server;
import io.fulcrum.server.ServerTransport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;

import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One run of a check's rules, on one event loop: connects, sends, reads and matches what the server answers,
 * then reports its result once and closes. Nothing here blocks: each step continues from a Netty event.
 */
final class CheckRun {
    /** What a check reads at most, as HAProxy's check buffer (tune.bufsize). */
    private static final int MAX_READ = 16384;
    /** How the info of a check the server closed without a byte begins (the step's number follows). */
    static final String EMPTY_RESPONSE = "TCPCHK got an empty response at step ";

    /**
     * Where and how one run connects, and what it sends about the server.
     *
     * @param sendProxy     the PROXY protocol version the check connections send (0: none)
     * @param proxyV2Local  a v2 header is a LOCAL command (without addresses), unless {@code pp2-never-send-local}
     * @param connectTimeout each connect's bound (its TLS handshake included): inter, or the shorter of inter and
     *                      timeout connect when timeout check is set; without timeout check it bounds the rest too
     * @param timeout       {@code timeout check}, which bounds the check from its connection on; 0 when not set
     */
    record Target(Backend backend, Server server, InetSocketAddress address, int sendProxy, boolean proxyV2Local, boolean viaSocks4, long connectTimeout, long timeout,
                  boolean explicit, boolean disableOn404, Supplier<String> stateHeader, ServerTransport tls, Map<Connect, ServerTransport> ruleTls) {
    }

    private final EventLoops loops;
    private final EventLoop loop;
    private final Target target;
    private final List<CheckRule> rules;
    private final Consumer<CheckResult> done;
    private final long start = System.nanoTime();
    private Channel channel;
    /** The bare connect made without a channel ({@link ConnectProbe}), or null. */
    /** The connect rule of the current connection said {@code linger}: it closes with a FIN, not a reset. */
    private boolean linger;
    private ConnectProbe probe;
    private ByteBuf in = Unpooled.EMPTY_BUFFER;
    private boolean eof;
    private int next;
    /** The step in progress, numbered from 1 as HAProxy does (its rule's index + 1); 0 is the implicit first connect. */
    private int step;
    private Expect waiting;
    private boolean waitingHttp;
    /** An HTTP request went out on this connection: every HTTP expect up to the next send reads its answer. */
    private boolean requested;
    /**
     * A set-var, unset-var or comment ran after the last step: HAProxy zeroes the check's code before each rule, so
     * the success then says code 0.
     */
    private boolean afterStep;
    private boolean connecting;
    /** In a TLS handshake: a timeout now is a layer-6 one. */
    private boolean handshaking;
    /** The connection runs over TLS: a check that only connects passes at layer 6. */
    private boolean overTls;
    /**
     * The last connect, send or expect that ran (HAProxy's current step): when the rules end, it says the success
     * (an expect's {@code ok-status}, {@code on-success} and {@code status-code}, else "(tcp-check)"...).
     */
    private CheckRule last;
    /** What a protocol's judge said of the expect that passed last, or null. */
    private String judged;
    private HttpAnswer answer;
    private ScheduledFuture<?> timer;
    private boolean finished;
    /** What the rules' expressions and log-formats see, made when one needs it (not for a bare connect). */
    private CheckContext ctx;

    CheckRun(EventLoops loops, EventLoop loop, Target target, List<CheckRule> rules, Consumer<CheckResult> done) {
        this.loops = loops;
        this.loop = loop;
        this.target = target;
        this.rules = rules;
        this.done = done;
    }

    /**
     * Starts on the loop; a rule set whose first connect, send or expect is not a connect connects to the server first
     * (HAProxy's implicit connect: variables set before an explicit connect are set before it).
     */
    void start() {
        for (int i = 0; i < rules.size(); i++) {
            CheckRule r = rules.get(i);
            if (!(r instanceof CheckRule.SetVar || r instanceof CheckRule.UnsetVar || r instanceof CheckRule.Comment)) {
                if (r instanceof Connect) {
                    proceed();
                    return;
                }
                break;
            }
        }
        last = Connect.implicit();
        connect(Connect.implicit());
    }

    private void connect(Connect c) {
        if (channel != null) {
            close(channel);
            channel = null;
            release();
            eof = false;
        }
        requested = false;
        closeProbe();
        // As HAProxy's tcpcheck_eval_connect(): each connect has its bound (inter, or the shorter of it and timeout
        // connect when timeout check is set); without timeout check it bounds the rest of the check too.
        arm(target.connectTimeout());
        linger = c.linger();
        int port = c.portExpr() == null ? 0 : c.portExpr().applyAsInt(ctx());
        // as HAProxy's tcpcheck_eval_connect(): the rule's port, its expression, its address's port, then the server's check port
        port = port > 0 && port <= 65535 ? port : c.port() != 0 ? c.port() : c.addr() != null && c.addr().getPort() != 0 ? c.addr().getPort()
                : target.address().getPort();
        InetSocketAddress to = new InetSocketAddress(c.addr() != null ? c.addr().getAddress() : target.address().getAddress(), port);
        connecting = true;
        // From the server's (or backend's) source, as HAProxy: a check sees what the traffic sees.
        // As HAProxy, through the server's socks4 proxy when the rule says via-socks4, or for a default connect
        // with check-via-socks4.
        SourceAddress source = SourceAddress.of(target.server(), target.backend().socketOptions().source);
        boolean socks = c.viaSocks4() || c.byDefault() && target.viaSocks4();
        // As HAProxy, in the server's network namespace (a probe makes its socket where it is).
        NetNamespace ns = target.server().spec().namespace;
        if (bare(c) && !linger && source == null && !socks && ns == null && ConnectProbe.usable(loop)) {
            probe(to);
            return;
        }
        Channel ch = ns == null ? loops.newSocketFor(to) : ns.inside(() -> loops.newSocketFor(to));
        ch.config().setAllocator(BufferOwner.CHECK);
        ch.config().setOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, 0); // the run's timer bounds the connect
        if (bare(c)) {
            // As HAProxy: the handshake's last ACK is delayed and the close resets, so the server's application never
            // sees the check and no TIME_WAIT is left here (thousands a second would make every connect dearer).
            if (!linger) {
                ch.config().setOption(ChannelOption.SO_LINGER, 0);
            }
            NativeOptions.quickAck(ch, false);
        }
        ch.pipeline().addLast(new Reader());
        channel = ch;
        // No Bootstrap: its options map, resolver and copies would be made for every check.
        loop.register(ch).addListener((ChannelFuture r) -> {
            if (!r.isSuccess()) {
                connected(c, r);
            } else if (!finished && ch == channel) {
                Socks4.connect(ch, to, source, socks ? Socks4.of(target.server()) : null).addListener((ChannelFuture cf) -> connected(c, cf));
            } else {
                ch.close();
            }
        });
    }

    /** (Re)starts the run's timer: {@code ms} from now. */
    private void arm(long ms) {
        if (timer != null) {
            timer.cancel(false);
        }
        timer = loop.schedule(this::timedOut, Math.max(1, ms), TimeUnit.MILLISECONDS);
    }

    /**
     * The connection is established (its TLS handshake and PROXY header included): from now on {@code timeout check},
     * when set, bounds the check, as HAProxy arms it once the connection is up ("an additional read timeout").
     */
    private void established() {
        if (target.timeout() > 0) {
            arm(target.timeout());
        }
        proceed();
    }

    /** A bare connect without a channel; as a channel's connect would, it passes at layer 4 or fails there. */
    private void probe(InetSocketAddress to) {
        ConnectProbe p = new ConnectProbe(failure -> {
            connecting = false;
            if (failure != null) {
                finish(CheckStatus.L4CON, 0, systemWords(failure) + where());
            } else {
                overTls = false;
                proceed(); // nothing is read nor sent on it: no timeout check to arm
            }
        });
        probe = p; // before connecting: the outcome may be told at once, and the run then closes the probe
        p.connect(loop, to);
    }

    private void closeProbe() {
        if (probe != null) {
            probe.close();
            probe = null;
        }
    }

    private void connected(Connect c, ChannelFuture cf) {
        connecting = false;
        if (finished) {
            cf.channel().close();
        } else if (!cf.isSuccess()) {
            Throwable t = cf.cause();
            finish(t instanceof ConnectTimeoutException ? CheckStatus.L4TOUT : CheckStatus.L4CON, 0,
                    (t instanceof ConnectTimeoutException ? "" : systemWords(t)) + where());
        } else {
            if (c.sendProxy() || target.sendProxy() > 0) {
                Channel ch = cf.channel();
                // HAProxy (since 2.2) says a check is its own connection with a v2 LOCAL command; v1 has no such command.
                int version = Math.max(1, target.sendProxy());
                boolean local = version == 2 && target.proxyV2Local();
                ch.write(ProxyHeader.encode(version, local ? null : ch.localAddress(), local ? null : ch.remoteAddress(), ch.alloc()));
            }
            ServerTransport tls = c.ssl() ? target.ruleTls().get(c) : c.byDefault() ? target.tls() : null;
            if (tls == null) {
                overTls = false;
                established();
                return;
            }
            // The handshake is part of connecting: the connect's bound covers it (L6TOUT), as HAProxy's.
            handshaking = true;
            tls.install(cf.channel(), null, target.server().counters(), target.backend().counters()).addListener(h -> {
                handshaking = false;
                if (finished || cf.channel() != channel) {
                    return;
                }
                if (h.isSuccess()) {
                    overTls = true;
                    established();
                } else {
                    finish(CheckStatus.L6RSP, 0, handshakeWords(h.cause()) + where());
                }
            });
        }
    }

    private CheckContext ctx() {
        if (ctx == null) {
            ctx = new CheckContext(target.backend(), target.server(), () -> in, () -> answer);
        }
        return ctx;
    }

    /**
     * The last rule, a connect nothing is sent on nor read from: the check ends once it is established ({@link #next}
     * follows it). A connect before another one is a whole connection, as HAProxy delays the ACK only for the last rule.
     */
    private boolean bare(Connect c) {
        boolean tls = c.ssl() || c.byDefault() && target.tls() != null;
        return !tls && !c.sendProxy() && target.sendProxy() == 0 && skipComments(next) >= rules.size();
    }

    /** The first rule from {@code i} that is not a comment (comment rules are steps that do nothing). */
    private int skipComments(int i) {
        while (i < rules.size() && rules.get(i) instanceof CheckRule.Comment) {
            i++;
        }
        return i;
    }

    /** Runs the rules from {@link #next} until one waits for the server or the set ends. */
    private void proceed() {
        while (!finished && next < rules.size()) {
            CheckRule r = rules.get(next++);
            step = next;
            afterStep = !(r instanceof Connect || r instanceof Send || r instanceof HttpSend || r instanceof Expect);
            if (!afterStep) {
                last = r;
            }
            switch (r) {
                case Connect c -> {
                    connect(c);
                    return;
                }
                case Send s -> {
                    release(); // what an expect then reads is the answer to this (HAProxy resets its check buffer)
                    byte[] data = s.data().bytes(ctx());
                    if (data == null) {
                        finish(CheckStatus.L7RSP, 0, "tcp-check send : failed to build log-format string at step " + next);
                        return;
                    }
                    channel.write(Unpooled.wrappedBuffer(data));
                }
                case CheckRule.SetVar v -> {
                    Sample value = new Sample();
                    if (v.format() != null) {
                        value.setStr(v.format().format(ctx()));
                        v.var().set(ctx(), value);
                    } else if (v.expr().eval(ctx(), value)) {
                        v.var().set(ctx(), value);
                    }
                }
                case CheckRule.UnsetVar v -> v.var().unset(ctx());
                case CheckRule.Comment k -> { }
                case HttpSend h -> {
                    release();
                    channel.writeAndFlush(Unpooled.wrappedBuffer(HttpCheck.request(h, ctx(), target.stateHeader())));
                    waitingHttp = true;
                    requested = true;
                    int n = skipComments(next);
                    if (n >= rules.size() || !(rules.get(n) instanceof Expect)) {
                        waiting = null; // the implicit expect: a 2xx or 3xx status
                        evaluate();
                        return;
                    }
                }
                case Expect e -> {
                    channel.flush();
                    waiting = e;
                    waitingHttp = requested && e.kind().http(); // after a set-var, still the answer of the request
                    evaluate();
                    return;
                }
            }
        }
        if (!finished) {
            if (channel != null) { // null after a probe
                channel.flush();
            }
            succeeded();
        }
    }

    /** The rules ended without a failure: the success the last step gives (HAProxy's end of tcpcheck_main()). */
    private void succeeded() {
        switch (last) {
            case Expect e -> {
                if (answer != null && !afterStep && on404()) {
                    finish(CheckStatus.L7OKC, answer.status(), ""); // disable-on-404: the server drains
                    return;
                }
                // As HAProxy: a protocol's judge tells its words when it sets the status (the log line then has them),
                // and the end of the rules puts tcpcheck_expect_onsuccess_message()'s in their place.
                String info = e.onSuccess() != null ? e.onSuccess().of(ctx()) : target.explicit() ? "(tcp-check)" : "";
                finish(e.ok() != null ? e.ok() : CheckStatus.L7OK, code(e, answer != null && !afterStep ? answer.status() : 0), info, judged);
            }
            case Connect c -> finish(overTls ? CheckStatus.L6OK : CheckStatus.L4OK, 0, c == Connect.implicit() ? "" : "(tcp-check)");
            case null, default -> finish(CheckStatus.L7OK, 0, "(tcp-check)");
        }
    }

    /** An HTTP check's 404 under {@code http-check disable-on-404} while the server is not down: expects let it through. */
    private boolean on404() {
        return target.disableOn404() && answer.status() == 404;
    }

    /** Decides the rule being waited for with what has arrived, or keeps waiting. */
    private void evaluate() {
        if (finished) {
            return;
        }
        if (waitingHttp) {
            evaluateHttp();
        } else if (waiting != null && waiting.kind().http()) {
            // An HTTP rule set without a request (a backend's expects replacing its defaults' rules): what the server
            // says answers no request, HAProxy's "invalid response"
            if (in.isReadable() || eof) {
                finish(CheckStatus.L7RSP, 0, "");
            }
        } else if (waiting != null) {
            evaluateTcp(waiting);
        }
    }

    private void evaluateTcp(Expect e) {
        int step = next;
        if (!eof && e.minRecv() > 0 && in.readableBytes() < e.minRecv()) {
            return;
        }
        if (eof && in.readableBytes() == 0) {
            finish(e.error() != null ? e.error() : CheckStatus.L7RSP, 0, EMPTY_RESPONSE + step + comment(e));
            return;
        }
        if (e.kind() == CheckRule.Kind.CUSTOM) {
            CheckRule.Verdict v = e.judge().judge(in, eof);
            if (v != null && v.passed()) {
                passed(v.info());
            } else if (v != null) {
                finish(v.status(), v.code(), v.info() + comment(e));
            }
            return;
        }
        boolean match = switch (e.kind()) {
            case STRING, BINARY -> ByteBufUtil.indexOf(Unpooled.wrappedBuffer(e.bytes()), in) >= 0;
            case STRING_LF -> ByteBufUtil.indexOf(Unpooled.wrappedBuffer(e.lf().of(ctx()).getBytes(StandardCharsets.ISO_8859_1)), in) >= 0;
            case BINARY_LF -> {
                byte[] b = CheckRules.hexOrNull(e.lf().of(ctx()));
                yield b != null && ByteBufUtil.indexOf(Unpooled.wrappedBuffer(b), in) >= 0;
            }
            case RSTRING -> e.regex().matcher(in.toString(StandardCharsets.ISO_8859_1)).find();
            case RBINARY -> e.regex().matcher(ByteBufUtil.hexDump(in).toUpperCase()).find();
            default -> throw new IllegalStateException(e.kind().toString());
        };
        if (!match && !eof && e.minRecv() < 0 && in.readableBytes() < MAX_READ) {
            return; // more may come
        }
        if (match != e.negate()) {
            passed(null);
            return;
        }
        String info;
        if (e.onError() != null) {
            info = e.onError().of(ctx());
        } else if (e.protocol()) {
            info = "";
        } else {
            String what = e.kind() == CheckRule.Kind.STRING ? "content '" + e.text() + "'" : "content (" + e.kind().word + ")";
            info = "TCPCHK " + (match ? "matched unwanted " : "did not match ") + what + " at step " + step;
        }
        finish(e.error() != null ? e.error() : CheckStatus.L7RSP, code(e, 0), info + comment(e));
    }

    /** " comment: TEXT" after a failure's info when the rule has a comment, as HAProxy adds it. */
    private static String comment(CheckRule.Expect e) {
        return e.comment() == null ? "" : " comment: " + e.comment();
    }

    /** The check's code from the rule's {@code status-code}, else {@code otherwise}. */
    private int code(Expect e, int otherwise) {
        int c = e.statusCode() == null ? -1 : e.statusCode().applyAsInt(ctx());
        return c < 0 ? otherwise : c;
    }

    private void evaluateHttp() {
        if (answer == null) {
            answer = HttpAnswer.parse(in);
            if (answer == null) {
                if (eof || in.readableBytes() >= MAX_READ) {
                    finish(CheckStatus.L7RSP, 0, "");
                }
                return;
            }
        }
        if (answer == HttpAnswer.INVALID) {
            finish(CheckStatus.L7RSP, 0, "");
            return;
        }
        Expect e = waiting;
        if (e == null) {
            int s = answer.status();
            if (on404()) {
                finish(CheckStatus.L7OKC, s, "");
            } else if (s >= 200 && s < 400) {
                finish(CheckStatus.L7OK, s, "");
            } else {
                finish(CheckStatus.L7STS, s, answer.reason());
            }
            return;
        }
        if (on404()) {
            passed(null); // the rule is not evaluated; the success then says L7OKC
            return;
        }
        boolean status = e.kind() == CheckRule.Kind.STATUS || e.kind() == CheckRule.Kind.RSTATUS || e.kind() == CheckRule.Kind.HEADER;
        boolean match;
        if (e.kind() == CheckRule.Kind.HEADER) {
            match = e.header().test(answer.headers(), ctx());
        } else if (status) {
            match = e.kind() == CheckRule.Kind.STATUS ? e.statusMatches(answer.status()) : e.regex().matcher(Integer.toString(answer.status())).find();
        } else {
            if (!eof && !answer.complete(in) && in.readableBytes() < MAX_READ) {
                return;
            }
            String body = answer.body(in);
            if (body.isEmpty()) {
                failed(e, CheckStatus.L7RSP, 0, "HTTP content check could not find a response body");
                return;
            }
            match = switch (e.kind()) {
                case BODY -> body.contains(e.text());
                case BODY_LF -> body.contains(e.lf().of(ctx()));
                default -> e.regex().matcher(body).find();
            };
        }
        if (match != e.negate()) {
            passed(null);
            return;
        }
        if (status) {
            failed(e, CheckStatus.L7STS, answer.status(), answer.reason());
        } else {
            failed(e, CheckStatus.L7RSP, 0, e.negate() ? "HTTP check matched unwanted content" : "HTTP content check did not match");
        }
    }

    /**
     * An HTTP expect failed: its {@code error-status} or {@code status}, its {@code status-code} or {@code code}, its
     * {@code on-error} or {@code info}, then its comment (HAProxy's tcpcheck_expect_onerror_message()).
     */
    private void failed(Expect e, CheckStatus status, int code, String info) {
        finish(e.error() != null ? e.error() : status, code(e, code), (e.onError() != null ? e.onError().of(ctx()) : info) + comment(e));
    }

    /**
     * An expect passed ({@code judged}: what a protocol's judge said), then the next rule; its success info is made
     * when the rules end, if it is the last step (as HAProxy).
     */
    private void passed(String judged) {
        this.judged = judged;
        waiting = null;
        boolean http = waitingHttp;
        // A following expect looks at the same answer (HAProxy's expect rules consume nothing).
        int n = skipComments(next);
        if (n < rules.size() && rules.get(n) instanceof Expect nextExpect && http == nextExpect.kind().http()) {
            waiting = nextExpect;
            last = nextExpect;
            next = n + 1;
            step = next;
            evaluate();
            return;
        }
        waitingHttp = false;
        proceed();
    }

    private void timedOut() {
        if (finished) {
            return;
        }
        if (connecting || handshaking) {
            finish(connecting ? CheckStatus.L4TOUT : CheckStatus.L6TOUT, 0, where());
            return;
        }
        Expect e = waiting;
        finish(e != null && e.timeout() != null ? e.timeout() : CheckStatus.L7TOUT, 0, where());
    }

    /**
     * Where an explicit {@code tcp-check} stood when its connection failed or its time ran out, after the system's words
     * (HAProxy's chk_report_conn_err()): " at step 2 of tcp-check (expect string '+PONG')"; nothing for other checks.
     */
    private String where() {
        if (!target.explicit()) {
            return "";
        }
        if (step == 0) {
            return " at initial connection step of tcp-check";
        }
        StringBuilder sb = new StringBuilder(" at step ").append(step).append(" of tcp-check");
        String comment = null;
        switch (rules.get(step - 1)) {
            case Connect c -> {
                sb.append(c.port() != 0 ? " (connect port " + c.port() + ")" : " (connect)");
                comment = c.comment();
            }
            case Expect e -> {
                sb.append(" (expect ").append(e.kind().word);
                if (e.kind() == CheckRule.Kind.STRING || e.kind() == CheckRule.Kind.BINARY) {
                    // HAProxy prints the pattern's bytes (a binary one decoded), as a C string
                    sb.append(" '").append(new String(e.bytes(), StandardCharsets.ISO_8859_1)).append('\'');
                }
                sb.append(')');
                comment = e.comment();
            }
            case Send x -> {
                sb.append(" (send)");
                comment = x.comment();
            }
            default -> { }
        }
        return comment == null ? sb.toString() : sb.append(" comment: '").append(comment).append('\'').toString();
    }

    private void finish(CheckStatus status, int code, String info) {
        finish(status, code, info, null);
    }

    /** The run ends: {@code said}, when not null, is what the log line tells instead of {@code info}. */
    private void finish(CheckStatus status, int code, String info, String said) {
        if (finished) {
            return;
        }
        finished = true;
        if (timer != null) {
            timer.cancel(false);
        }
        if (channel != null) {
            close(channel);
        }
        closeProbe();
        release();
        done.accept(new CheckResult(status, code, cString(info), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), said == null ? null : cString(said)));
    }

    /** HAProxy keeps a check's words as a C string: up to their first NUL. */
    private static String cString(String s) {
        int nul = s.indexOf('\0');
        return nul < 0 ? s : s.substring(0, nul);
    }

    /**
     * Closes a connection of the check as HAProxy does: with a reset (SO_LINGER 0, no TIME_WAIT left here) unless its
     * connect rule says {@code linger} or the server closed first (the channel is then closed already, with a FIN).
     */
    private void close(Channel ch) {
        if (!linger && ch.isActive()) {
            ch.config().setOption(ChannelOption.SO_LINGER, 0);
        }
        // In a task of its own: on io_uring (Netty 4.2.18), a channel closed by a listener of its connect (a check
        // ending there, as a bare connect with a PROXY header does) stays open as long as the server keeps it.
        ch.eventLoop().execute(ch::close);
    }

    private void release() {
        in.release();
        in = Unpooled.EMPTY_BUFFER;
        answer = null;
        if (ctx != null) {
            ctx.release();
        }
    }

    /**
     * HAProxy's words for a failed connect (chk_report_conn_err()): the system's ("Connection refused") for an error
     * the connection reported later, "General socket error (...)" for one connect() itself returned (its CO_ER_SOCK_ERR).
     */
    private static String systemWords(Throwable t) {
        if (t instanceof NoRouteToHostException && t.getMessage() == null) {
            return "General socket error (Network is unreachable)"; // Netty's exception for connect()'s ENETUNREACH
        }
        String m = t.getMessage();
        if (m == null) {
            return t.getClass().getSimpleName();
        }
        m = m.replaceFirst(": /\\S*$", ""); // Netty adds the address: "Connection refused: /127.0.0.1:80"
        String words = m.contains(": ") ? m.substring(m.lastIndexOf(": ") + 2) : m;
        return m.startsWith("connect(..) failed") ? "General socket error (" + words + ")" : words;
    }

    /** HAProxy's words for a failed handshake (conn_err_code_str): the peer's close, or a protocol error. */
    private static String handshakeWords(Throwable t) {
        return eofCause(t) ? "SSL handshake failure (Connection reset by peer)" : "SSL handshake failure";
    }

    private static boolean eofCause(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof java.nio.channels.ClosedChannelException || c instanceof java.io.IOException && !(c instanceof javax.net.ssl.SSLException)) {
                return true;
            }
        }
        return false;
    }

    /** Reads one connection's bytes into {@link #in}. */
    private final class Reader extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            if (finished || ctx.channel() != channel) {
                b.release();
                return;
            }
            if (in == Unpooled.EMPTY_BUFFER) {
                in = ctx.alloc().buffer(Math.max(256, b.readableBytes()));
            }
            in.writeBytes(b, Math.min(b.readableBytes(), Math.max(0, MAX_READ - in.readableBytes())));
            b.release();
            evaluate();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (ctx.channel() == channel && !finished) {
                eof = true;
                if (waiting != null || waitingHttp) {
                    evaluate();
                }
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
