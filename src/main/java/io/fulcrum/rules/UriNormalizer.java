package io.fulcrum.rules;

import java.util.ArrayList;
import java.util.List;

/**
 * The normalizers of {@code http-request normalize-uri} (HAProxy 2.6's experimental set). Each works on the URI from
 * its path on ("/..." with the query and anything after), the path normalizers up to the first '?'; an absolute
 * URI keeps its scheme and authority, a URI without a path ({@code *}, {@code http://host}) is left alone.
 */
enum UriNormalizer {
    PATH_STRIP_DOT {
        @Override
        String path(String path) {
            return segments(path, false, false);
        }
    },
    PATH_STRIP_DOTDOT {
        @Override
        String path(String path) {
            return segments(path, true, false);
        }
    },
    PATH_STRIP_DOTDOT_FULL {
        @Override
        String path(String path) {
            return segments(path, true, true);
        }
    },
    PATH_MERGE_SLASHES {
        @Override
        String path(String path) {
            StringBuilder out = new StringBuilder(path.length());
            for (int i = 0; i < path.length(); i++) {
                char c = path.charAt(i);
                if (c != '/' || out.isEmpty() || out.charAt(out.length() - 1) != '/') {
                    out.append(c);
                }
            }
            return out.toString();
        }
    },
    PERCENT_DECODE_UNRESERVED {
        @Override
        String whole(String rest) {
            return percent(rest, true, false);
        }
    },
    PERCENT_DECODE_UNRESERVED_STRICT {
        @Override
        String whole(String rest) {
            return percent(rest, true, true);
        }
    },
    PERCENT_TO_UPPERCASE {
        @Override
        String whole(String rest) {
            return percent(rest, false, false);
        }
    },
    PERCENT_TO_UPPERCASE_STRICT {
        @Override
        String whole(String rest) {
            return percent(rest, false, true);
        }
    },
    QUERY_SORT_BY_NAME {
        @Override
        String whole(String rest) {
            int q = rest.indexOf('?');
            if (q < 0) {
                return rest;
            }
            String query = rest.substring(q + 1);
            // As HAProxy splits it: a final '&' ends the last parameter, it does not start an empty one
            List<String> params = new ArrayList<>(List.of(query.split("&", -1)));
            if (query.endsWith("&")) {
                params.remove(params.size() - 1);
            }
            params.sort((a, b) -> paramName(a).compareTo(paramName(b))); // stable: equal names keep their order
            return rest.substring(0, q + 1) + String.join("&", params);
        }
    },
    FRAGMENT_STRIP {
        @Override
        String whole(String rest) {
            int f = rest.indexOf('#');
            return f < 0 ? rest : rest.substring(0, f);
        }
    },
    FRAGMENT_ENCODE {
        @Override
        String whole(String rest) {
            return rest.replace("#", "%23");
        }
    };

    /** The normalizer named {@code name} in a configuration ("path-strip-dot"), without its option; null if none. */
    static UriNormalizer named(String name) {
        return switch (name) {
            case "path-strip-dot" -> PATH_STRIP_DOT;
            case "path-strip-dotdot" -> PATH_STRIP_DOTDOT;
            case "path-merge-slashes" -> PATH_MERGE_SLASHES;
            case "percent-decode-unreserved" -> PERCENT_DECODE_UNRESERVED;
            case "percent-to-uppercase" -> PERCENT_TO_UPPERCASE;
            case "query-sort-by-name" -> QUERY_SORT_BY_NAME;
            case "fragment-strip" -> FRAGMENT_STRIP;
            case "fragment-encode" -> FRAGMENT_ENCODE;
            default -> null;
        };
    }

    /** The variant with the option ("full" or "strict") this normalizer takes, or null when it takes none. */
    String option() {
        return switch (this) {
            case PATH_STRIP_DOTDOT -> "full";
            case PERCENT_DECODE_UNRESERVED, PERCENT_TO_UPPERCASE -> "strict";
            default -> null;
        };
    }

    UriNormalizer withOption() {
        return switch (this) {
            case PATH_STRIP_DOTDOT -> PATH_STRIP_DOTDOT_FULL;
            case PERCENT_DECODE_UNRESERVED -> PERCENT_DECODE_UNRESERVED_STRICT;
            case PERCENT_TO_UPPERCASE -> PERCENT_TO_UPPERCASE_STRICT;
            default -> this;
        };
    }

    /** The normalized URI, or null when a strict normalizer found an invalid sequence (HTTP 400). */
    String apply(String uri) {
        Uri u = Uri.of(uri);
        String rest = u.pathq();
        if (!rest.startsWith("/")) {
            return uri;
        }
        String done = whole(rest);
        return done == null ? null : u.prefix() + done;
    }

    /** The normalized path-and-rest; by default, the path normalized and the rest (from '?') as it is. */
    String whole(String rest) {
        int q = rest.indexOf('?');
        return q < 0 ? path(rest) : path(rest.substring(0, q)) + rest.substring(q);
    }

    String path(String path) {
        return path;
    }

    /**
     * Removes the "." segments, and with {@code dotdot} resolves the ".." ones against the segment before (an empty
     * one counts); a ".." with nothing before it stays, or goes with {@code full}. A path ending in a removed segment
     * keeps its final '/'.
     */
    private static String segments(String path, boolean dotdot, boolean full) {
        String[] in = path.substring(1).split("/", -1);
        List<String> out = new ArrayList<>(in.length);
        for (int i = 0; i < in.length; i++) {
            String seg = in[i];
            boolean last = i == in.length - 1;
            if (!dotdot && seg.equals(".")) {
                if (last) {
                    out.add("");
                }
            } else if (dotdot && seg.equals("..")) {
                if (!out.isEmpty() && !out.get(out.size() - 1).equals("..")) {
                    out.remove(out.size() - 1);
                } else if (!full) {
                    out.add(seg);
                    continue;
                }
                if (last) {
                    out.add("");
                }
            } else {
                out.add(seg);
            }
        }
        return "/" + String.join("/", out);
    }

    /**
     * Each valid %XX sequence: decoded when it stands for an unreserved character ({@code decode}), else written
     * with uppercase digits (not decoding); an invalid one fails with {@code strict}, else stays as it is.
     */
    private static String percent(String s, boolean decode, boolean strict) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '%') {
                out.append(c);
                continue;
            }
            int hi = i + 1 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
            int lo = i + 2 < s.length() ? Character.digit(s.charAt(i + 2), 16) : -1;
            if (hi < 0 || lo < 0 || s.charAt(i + 1) > 127 || s.charAt(i + 2) > 127) {
                if (strict) {
                    return null;
                }
                out.append(c);
                continue;
            }
            char v = (char) (hi << 4 | lo);
            if (!decode) {
                out.append('%').append(Character.toUpperCase(s.charAt(i + 1))).append(Character.toUpperCase(s.charAt(i + 2)));
            } else if (unreserved(v)) {
                out.append(v);
            } else {
                out.append(s, i, i + 3);
            }
            i += 2;
        }
        return out.toString();
    }

    private static boolean unreserved(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~';
    }

    /** A query parameter's name: what comes before its '='. */
    private static String paramName(String param) {
        int eq = param.indexOf('=');
        return eq < 0 ? param : param.substring(0, eq);
    }
}
