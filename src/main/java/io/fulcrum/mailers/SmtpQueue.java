package io.fulcrum.mailers;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The alerts of one proxy to one mailer, sent one after the other on a virtual thread (never on an event loop), each
 * as HAProxy 2.6's SMTP conversation: wait for "220 ", HELO, MAIL FROM, RCPT TO, DATA, the message, QUIT, each answer
 * awaited as the string HAProxy expects ("250 ", "354 ", "221 "). An alert that fails (mailer unreachable, another
 * answer, {@code timeout mail} over the whole conversation) is dropped, as in HAProxy.
 */
final class SmtpQueue {
    /** strftime's "%a, %d %b %Y %T %z (%Z)", HAProxy's Date header. */
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss Z (zzz)", Locale.ENGLISH);

    private final MailersSpec.Mailer mailer;
    private final long timeoutMs;
    private final String helo;
    private final String from;
    private final String to;
    private final ExecutorService thread;

    SmtpQueue(MailersSpec.Mailer mailer, long timeoutMs, String helo, String from, String to) {
        this.mailer = mailer;
        this.timeoutMs = timeoutMs;
        this.helo = helo;
        this.from = from;
        this.to = to;
        this.thread = Executors.newSingleThreadExecutor(Thread.ofVirtual().name("mailer-" + mailer.name()).factory());
    }

    /** Queues {@code message}; returns at once. */
    void send(String message) {
        String date = ZonedDateTime.now().format(DATE);
        thread.execute(() -> {
            try {
                converse(message, date);
            } catch (IOException e) {
                // dropped, as HAProxy drops an alert whose check failed
            }
        });
    }

    private void converse(String message, String date) throws IOException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        try (Socket s = new Socket()) {
            s.connect(mailer.address(), (int) Math.max(1, timeoutMs));
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            expect(s, in, "220 ", deadline);
            write(out, "HELO " + helo + "\r\n");
            expect(s, in, "250 ", deadline);
            write(out, "MAIL FROM:<" + from + ">\r\n");
            expect(s, in, "250 ", deadline);
            write(out, "RCPT TO:<" + to + ">\r\n");
            expect(s, in, "250 ", deadline);
            write(out, "DATA\r\n");
            expect(s, in, "354 ", deadline);
            write(out, "From: " + from + "\r\nTo: " + to + "\r\nDate: " + date + "\r\nSubject: [HAProxy Alert] " + message
                    + "\r\n\r\n" + message + "\r\n\r\n.\r\n");
            expect(s, in, "250 ", deadline);
            write(out, "QUIT\r\n");
            expect(s, in, "221 ", deadline);
        }
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Reads until what arrived since the last answer contains {@code code}, as HAProxy's tcp-check "expect string". */
    private static void expect(Socket s, InputStream in, String code, long deadline) throws IOException {
        StringBuilder got = new StringBuilder();
        byte[] buf = new byte[512];
        while (got.indexOf(code) < 0) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                throw new SocketTimeoutException("timeout mail");
            }
            s.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
            int n = in.read(buf);
            if (n < 0) {
                throw new IOException("closed by the mailer");
            }
            got.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
        }
    }
}
