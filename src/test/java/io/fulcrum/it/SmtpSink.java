package io.fulcrum.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A test SMTP server on 127.0.0.1: greets with 220, answers 354 to DATA, 221 to QUIT and {@code mailFrom} to MAIL
 * FROM, 250 to the rest and to the end of the data, and records each connection's bytes once it closes.
 */
final class SmtpSink implements AutoCloseable {
    private final LinkedBlockingQueue<String> transcripts = new LinkedBlockingQueue<>();
    private final Origin origin;

    private SmtpSink(String mailFrom) throws IOException {
        this.origin = Origin.start(s -> converse(s, mailFrom));
    }

    /** A mailer that accepts every mail. */
    static SmtpSink start() throws IOException {
        return new SmtpSink("250 2.1.0 Ok");
    }

    /** A mailer that answers {@code mailFrom} (a refusal, say) to MAIL FROM. */
    static SmtpSink answeringMailFrom(String mailFrom) throws IOException {
        return new SmtpSink(mailFrom);
    }

    int port() {
        return origin.port();
    }

    /** The next conversation held, or null after {@code seconds}. */
    String next(int seconds) throws InterruptedException {
        return transcripts.poll(seconds, TimeUnit.SECONDS);
    }

    private void converse(Socket s, String mailFrom) throws IOException {
        StringBuilder got = new StringBuilder();
        try {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            reply(out, "220 sink ESMTP");
            StringBuilder line = new StringBuilder();
            boolean data = false;
            int b;
            while ((b = in.read()) >= 0) {
                got.append((char) b);
                line.append((char) b);
                if (b != '\n') {
                    continue;
                }
                String l = line.toString();
                line.setLength(0);
                if (data) {
                    if (l.equals(".\r\n")) {
                        data = false;
                        reply(out, "250 2.0.0 Ok: queued");
                    }
                } else if (l.startsWith("DATA")) {
                    data = true;
                    reply(out, "354 End data with <CR><LF>.<CR><LF>");
                } else if (l.startsWith("QUIT")) {
                    reply(out, "221 2.0.0 Bye");
                } else {
                    reply(out, l.startsWith("MAIL FROM") ? mailFrom : "250 sink");
                }
            }
        } catch (IOException e) {
            // a reset by the client: what came before is the transcript
        } finally {
            transcripts.add(got.toString());
        }
    }

    private static void reply(OutputStream out, String text) throws IOException {
        out.write((text + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    @Override
    public void close() throws IOException {
        origin.close();
    }
}
