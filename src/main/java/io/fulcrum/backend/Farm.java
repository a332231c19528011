package io.fulcrum.backend;

/**
 * The servers load balancing uses now, with their effective weights: the usable active servers, or when
 * none is, the first usable backup server, or all of them with {@code option allbackups}. Immutable: a new
 * one is planned at each change of a server's usability or weight.
 */
final class Farm {
    static final Farm EMPTY = new Farm(new Member[0], new int[0]);

    final Member[] members;
    /** Effective weights ({@link Member#SCALE}d). */
    final int[] weights;
    /** The sum of the weights before each member (HAProxy's cumulative_weight, for hash-balance-factor). */
    final int[] cumulative;
    final int total;

    Farm(Member[] members, int[] weights) {
        this.members = members;
        this.weights = weights;
        this.cumulative = new int[weights.length];
        int sum = 0;
        for (int i = 0; i < weights.length; i++) {
            cumulative[i] = sum;
            sum += weights[i];
        }
        this.total = sum;
    }

    boolean isEmpty() {
        return members.length == 0;
    }

    int indexOf(Member m) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == m) {
                return i;
            }
        }
        return -1;
    }
}
