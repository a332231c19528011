package io.fulcrum.peers;

import io.netty.buffer.ByteBuf;

/** The peers protocol's message classes, types and status codes (HAProxy 2.6's peers.c, peers-v2.0.txt). */
final class Wire {
    static final String PROTOCOL = "HAProxyS";
    static final int MAJOR = 2;
    /** 2.1 adds the updates that carry their expiry; a peer answering 502 gets 2.0. */
    static final int MINOR = 1;

    static final int CLASS_CONTROL = 0;
    static final int CLASS_ERROR = 1;
    static final int CLASS_TABLE = 10;
    static final int CLASS_RESERVED = 255;

    static final int RESYNC_REQUEST = 0;
    static final int RESYNC_FINISHED = 1;
    static final int RESYNC_PARTIAL = 2;
    static final int RESYNC_CONFIRM = 3;
    static final int HEARTBEAT = 4;

    static final int ERROR_PROTOCOL = 0;
    static final int ERROR_SIZE = 1;

    static final int UPDATE = 0x80;
    static final int INC_UPDATE = 0x81;
    static final int DEFINE = 0x82;
    static final int SWITCH = 0x83;
    static final int ACK = 0x84;
    static final int UPDATE_TIMED = 0x85;
    static final int INC_UPDATE_TIMED = 0x86;
    /** Types from 128 carry a length and data. */
    static final int WITH_DATA = 0x80;

    static final int STATUS_CONNECTING = 100;
    static final int STATUS_CONNECTED = 110;
    static final int STATUS_OK = 200;
    static final int STATUS_TRY_AGAIN = 300;
    static final int STATUS_PROTOCOL = 501;
    static final int STATUS_VERSION = 502;
    static final int STATUS_HOST = 503;
    static final int STATUS_PEER = 504;

    // A section's resync flags, as show peers prints them (HAProxy 2.6's PEERS_F_RESYNC_*).
    static final int RESYNC_LOCAL = 0x1;
    static final int RESYNC_REMOTE = 0x2;
    static final int RESYNC_ASSIGN = 0x4;
    static final int RESYNC_PROCESS = 0x8;
    static final int RESYNC_LOCALTIMEOUT = 0x10;
    static final int RESYNC_REMOTETIMEOUT = 0x20;
    static final int RESYNC_LOCALABORT = 0x40;
    static final int RESYNC_REMOTEABORT = 0x80;
    static final int RESYNC_LOCALFINISHED = 0x100;
    static final int RESYNC_REMOTEFINISHED = 0x200;
    static final int RESYNC_LOCALPARTIAL = 0x400;
    static final int RESYNC_REMOTEPARTIAL = 0x800;
    static final int RESYNC_LOCALASSIGN = 0x1000;
    static final int RESYNC_REMOTEASSIGN = 0x2000;
    static final int RESYNC_REQUESTED = 0x4000;
    static final int DONOTSTOP = 0x10000;

    // A peer's flags (PEER_F_*).
    static final int PEER_TEACH_PROCESS = 0x1;
    static final int PEER_LEARN_ASSIGN = 0x100;
    static final int PEER_LEARN_NOTUP2DATE = 0x200;
    static final int PEER_ALIVE = 0x20000000;

    /** HAProxy refuses a message longer than its buffer (tune.bufsize). */
    static final int MAX_MESSAGE = 16384;

    private Wire() {
    }

    /** The hello an initiating peer sends: protocol and version, the name it calls the other, its own name and pid. */
    static String hello(String remote, String local, int minor) {
        return PROTOCOL + " " + MAJOR + "." + minor + "\n" + remote + "\n" + local + " " + ProcessHandle.current().pid() + " 1\n";
    }

    /** A two-byte message (control or error class). */
    static void control(ByteBuf out, int cls, int type) {
        out.writeByte(cls).writeByte(type);
    }

    /** A table-class message of {@code type} whose data is {@code body} (read entirely). */
    static void message(ByteBuf out, int type, ByteBuf body) {
        out.writeByte(CLASS_TABLE).writeByte(type);
        VarInt.write(out, body.readableBytes());
        out.writeBytes(body);
    }

    /** How {@code show peers} names a status code. */
    static String statusName(int code) {
        return switch (code) {
            case STATUS_CONNECTING -> "CONN";
            case STATUS_CONNECTED -> "HSHK";
            case STATUS_OK -> "ESTA";
            case STATUS_TRY_AGAIN -> "RETR";
            case STATUS_PROTOCOL -> "PROT";
            case STATUS_VERSION -> "VERS";
            case STATUS_HOST -> "NAME";
            case STATUS_PEER -> "UNKN";
            default -> "NONE";
        };
    }
}
