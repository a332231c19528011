package io.fulcrum.stats;

import java.util.List;

/** Renders rows of stats as HAProxy does: CSV, typed output, JSON. */
final class StatFormats {
    private StatFormats() {
    }

    /** The output formats of {@code show info} and {@code show stat}. */
    enum Format {
        PLAIN, TYPED, JSON;

        /** The last of the words "typed" and "json" decides, as in HAProxy ({@code show info json typed} is typed). */
        static Format of(List<String> words) {
            Format f = PLAIN;
            for (String w : words) {
                if (w.equals("typed")) {
                    f = TYPED;
                } else if (w.equals("json")) {
                    f = JSON;
                }
            }
            return f;
        }
    }

    /** The CSV header line: "# pxname,svname,...,agg_check_status,-,ssl_sess,...," */
    static void csvHeader(StringBuilder b) {
        b.append("# ");
        for (StatField f : StatField.values()) {
            b.append(f.fieldName()).append(',');
            if (f == StatField.LAST_STATIC) {
                b.append("-,");
            }
        }
        b.append('\n');
    }

    static void csv(StringBuilder b, StatRow r) {
        for (StatField f : StatField.values()) {
            Object v = r.get(f);
            if (v != null) {
                csvValue(b, v.toString());
            }
            b.append(',');
            if (f == StatField.LAST_STATIC) {
                b.append("-,");
            }
        }
        b.append('\n');
    }

    /** Quoted only when ambiguous (a comma or a quote in it), quotes doubled. */
    private static void csvValue(StringBuilder b, String v) {
        if (v.indexOf(',') < 0 && v.indexOf('"') < 0) {
            b.append(v);
            return;
        }
        b.append('"').append(v.replace("\"", "\"\"")).append('"');
    }

    /** "F.2.0.4.scur.1:MGP:u32:0", one line per field that has a value, with its description if asked. */
    static void typed(StringBuilder b, StatRow r, boolean desc) {
        ObjType t = r.type();
        for (StatField f : StatField.values()) {
            Object v = r.get(f);
            if (v == null || !f.appliesTo(t)) {
                continue;
            }
            b.append(t.letter()).append('.').append(r.proxyId()).append('.').append(r.serverId()).append('.')
                    .append(f.ordinal()).append('.').append(f.fieldName()).append(".1:")
                    .append(f.tags(t)).append(':').append(f.type(t)).append(':').append(v);
            if (desc) {
                b.append(":\"").append(f.description()).append('"');
            }
            b.append('\n');
        }
    }

    /** An array per row of objects per field, on one line, as HAProxy's "show stat json". */
    static void json(StringBuilder b, List<StatRow> rows) {
        b.append('[');
        for (int i = 0; i < rows.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            StatRow r = rows.get(i);
            ObjType t = r.type();
            b.append('[');
            boolean first = true;
            for (StatField f : StatField.values()) {
                Object v = r.get(f);
                if (v == null || !f.appliesTo(t)) {
                    continue;
                }
                if (!first) {
                    b.append(',');
                }
                first = false;
                b.append("{\"objType\":\"").append(t.jsonName()).append("\",\"proxyId\":").append(r.proxyId())
                        .append(",\"id\":").append(r.serverId()).append(",\"field\":{\"pos\":").append(f.ordinal())
                        .append(",\"name\":\"").append(f.fieldName()).append("\"},\"processNum\":1,");
                tags(b, f.tags(t));
                b.append(",\"value\":{\"type\":\"").append(f.type(t)).append("\",\"value\":");
                jsonValue(b, v);
                b.append("}}");
            }
            b.append(']');
        }
        b.append("]\n");
    }

    /** {"origin":"Metric","nature":"Gauge","scope":"Process"} from "MGP". */
    static void tags(StringBuilder b, String tags) {
        b.append("\"tags\":{\"origin\":\"").append(switch (tags.charAt(0)) {
            case 'M' -> "Metric";
            case 'S' -> "Status";
            case 'K' -> "Key";
            case 'C' -> "Config";
            case 'P' -> "Product";
            default -> "Unknown";
        }).append("\",\"nature\":\"").append(switch (tags.charAt(1)) {
            case 'A' -> "Age";
            case 'a' -> "Avg";
            case 'C' -> "Counter";
            case 'D' -> "Duration";
            case 'G' -> "Gauge";
            case 'L' -> "Limit";
            case 'M' -> "Max";
            case 'N' -> "Name";
            case 'O' -> "Output";
            case 'R' -> "Rate";
            case 'T' -> "Time";
            default -> "Unknown";
        }).append("\",\"scope\":\"").append(switch (tags.charAt(2)) {
            case 'P' -> "Process";
            case 'S' -> "Service";
            case 's' -> "System";
            default -> "Unknown";
        }).append("\"}");
    }

    static void jsonValue(StringBuilder b, Object v) {
        if (v instanceof String s) {
            b.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    default -> {
                        if (c < 0x20) {
                            b.append(String.format("\\u%04x", (int) c));
                        } else {
                            b.append(c);
                        }
                    }
                }
            }
            b.append('"');
        } else {
            b.append(v);
        }
    }
}
