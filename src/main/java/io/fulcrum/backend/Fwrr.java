package io.fulcrum.backend;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * HAProxy's weighted round robin (lb_fwrr) for one group of servers with every server free, run turn by turn. It
 * lives across plans so that a weight change or a server going down or up moves that server within the running
 * windows as HAProxy does (fwrr_update_server_weight, fwrr_set_server_status_down/up) instead of starting afresh.
 * Not thread-safe: {@link RoundRobin} uses it under the backend's plan lock.
 */
final class Fwrr {
    /** HAProxy's SRV_EWGHT_MAX, SRV_UWGHT_RANGE and BE_WEIGHT_SCALE. */
    private static final long EWGHT_MAX = 4096;
    private static final long UWGHT_RANGE = 256;
    private static final long WEIGHT_SCALE = Member.SCALE;
    /** The trees: a server's tree is one of these indexes, init and next being T0 or T1 in turn. */
    private static final int NONE = -1;
    private static final int CURR = 0;
    private static final int T0 = 1;
    private static final int T1 = 2;

    /** A server's place in a tree: its key, then the order of insertion (ebtree keeps duplicates in that order). */
    private record Node(long key, long seq, int server) {
    }

    private final Map<Member, Integer> index;
    private final List<Member> servers;
    private int[] weight;
    private long[] npos;
    private long[] lpos;
    private long[] rweight;
    private int[] tree;
    private Node[] node;
    private final List<TreeSet<Node>> trees;
    private int init = T0;
    private int next = T1;
    private long currWeight;
    private long nextWeight;
    private long currPos;
    private long seq;

    /** HAProxy's initial state (fwrr_init_server_groups) for {@code members} with their effective weights. */
    Fwrr(Member[] members, int[] weights) {
        index = new IdentityHashMap<>();
        servers = new ArrayList<>();
        weight = new int[0];
        npos = new long[0];
        lpos = new long[0];
        rweight = new long[0];
        tree = new int[0];
        node = new Node[0];
        trees = List.of(tree(), tree(), tree());
        for (int i = 0; i < members.length; i++) {
            int s = add(members[i]);
            weight[s] = weights[i];
            if (weights[i] > 0) {
                nextWeight += weights[i];
                queueByWeight(init, s);
            }
        }
        currWeight = nextWeight;
        currPos = nextWeight;
    }

    private Fwrr(Fwrr o) {
        index = new IdentityHashMap<>(o.index);
        servers = new ArrayList<>(o.servers);
        weight = o.weight.clone();
        npos = o.npos.clone();
        lpos = o.lpos.clone();
        rweight = o.rweight.clone();
        tree = o.tree.clone();
        node = o.node.clone();
        trees = List.of(new TreeSet<>(o.trees.get(0)), new TreeSet<>(o.trees.get(1)), new TreeSet<>(o.trees.get(2)));
        init = o.init;
        next = o.next;
        currWeight = o.currWeight;
        nextWeight = o.nextWeight;
        currPos = o.currPos;
        seq = o.seq;
    }

    Fwrr copy() {
        return new Fwrr(this);
    }

    private static TreeSet<Node> tree() {
        return new TreeSet<>(Comparator.comparingLong(Node::key).thenComparingLong(Node::seq));
    }

    private int add(Member m) {
        int s = servers.size();
        index.put(m, s);
        servers.add(m);
        weight = Arrays.copyOf(weight, s + 1);
        npos = Arrays.copyOf(npos, s + 1);
        lpos = Arrays.copyOf(lpos, s + 1);
        rweight = Arrays.copyOf(rweight, s + 1);
        tree = Arrays.copyOf(tree, s + 1);
        tree[s] = NONE;
        node = Arrays.copyOf(node, s + 1);
        return s;
    }

    /**
     * Brings the servers to the weights of a new plan, one server after the other: a server left out of
     * {@code members} is down, a weight of 0 too.
     */
    void update(Member[] members, int[] weights) {
        int[] wanted = new int[servers.size()];
        for (int i = 0; i < members.length; i++) {
            Integer s = index.get(members[i]);
            if (s == null) {
                s = add(members[i]);
                wanted = Arrays.copyOf(wanted, s + 1);
            }
            wanted[s] = weights[i];
        }
        for (int s = 0; s < wanted.length; s++) {
            if (wanted[s] != weight[s]) {
                changeWeight(s, wanted[s]);
            }
        }
    }

    /** fwrr_update_server_weight, with fwrr_set_server_status_down/up when the server's usability changes. */
    private void changeWeight(int s, int w) {
        int old = weight[s];
        if (w == 0) { // status down
            nextWeight -= old;
            dequeue(s);
            tree[s] = NONE;
            weight[s] = 0;
            return;
        }
        nextWeight += w - old;
        weight[s] = w;
        if (old == 0) { // status up
            getSrv(s);
            npos[s] = currPos + (nextWeight + currWeight - currPos) / w;
            queue(s);
        } else if (tree[s] == init) {
            dequeue(s);
            queueByWeight(init, s);
        } else {
            getSrv(s);
            long prevNext = npos[s];
            long step = nextWeight / w;
            npos[s] = lpos[s] + step;
            rweight[s] = 0;
            if (npos[s] > prevNext) {
                npos[s] = prevNext;
            }
            if (npos[s] < currPos + 2) {
                npos[s] = currPos + step;
            }
            dequeue(s);
            queue(s);
        }
    }

    /** fwrr_get_srv: prepares a server taken out of its tree. */
    private void getSrv(int s) {
        if (tree[s] == init) {
            npos[s] = 0;
            rweight[s] = 0;
        } else if (tree[s] == next) {
            npos[s] += currWeight;
        } else if (tree[s] == NONE) {
            npos[s] = currPos;
        }
    }

    private void dequeue(int s) {
        if (tree[s] != NONE) {
            trees.get(tree[s]).remove(node[s]);
        }
    }

    private void insert(int t, int s, long key) {
        node[s] = new Node(key, seq++, s);
        tree[s] = t;
        trees.get(t).add(node[s]);
    }

    private void queueByWeight(int t, int s) {
        insert(t, s, EWGHT_MAX - weight[s]);
    }

    /** fwrr_queue_srv: a server whose next turn is beyond this window and the next one's start waits in next. */
    private void queue(int s) {
        if (npos[s] >= 2 * currWeight || npos[s] >= currWeight + nextWeight) {
            npos[s] -= currWeight;
            queueByWeight(next, s);
        } else {
            insert(CURR, s, UWGHT_RANGE * npos[s] + (EWGHT_MAX + rweight[s] - weight[s]) / WEIGHT_SCALE);
        }
    }

    /** True when the next turn starts a new window (the current and init trees are used up). */
    boolean atWindowEnd() {
        return trees.get(CURR).isEmpty() && trees.get(init).isEmpty();
    }

    /** fwrr_get_next_server with every server free: the next turn's server, or null when none has a weight. */
    Member next() {
        if (currWeight == 0) {
            currPos = currWeight = nextWeight;
        }
        int s = fromGroup();
        if (s < 0) { // fwrr_switch_trees
            int swap = init;
            init = next;
            next = swap;
            currWeight = nextWeight;
            currPos = currWeight;
            s = fromGroup();
            if (s < 0) {
                return null;
            }
        }
        if (npos[s] == 0) {
            npos[s] = currPos;
        }
        lpos[s] = npos[s];
        npos[s] += nextWeight / weight[s];
        rweight[s] += nextWeight % weight[s];
        if (rweight[s] >= weight[s]) {
            rweight[s] -= weight[s];
            npos[s]++;
        }
        dequeue(s);
        currPos++;
        queue(s);
        return servers.get(s);
    }

    /** The first server of the current tree if its turn has come, else the first not yet placed, else the first. */
    private int fromGroup() {
        TreeSet<Node> curr = trees.get(CURR);
        Node c = curr.isEmpty() ? null : curr.first();
        if (c != null && npos[c.server()] <= currPos) {
            return c.server();
        }
        TreeSet<Node> first = trees.get(init);
        if (!first.isEmpty()) {
            int s = first.first().server();
            npos[s] = 0;
            rweight[s] = 0;
            return s;
        }
        return c == null ? -1 : c.server();
    }

    /** The same turns from here on as {@code o} (the insertion counter and the position within the window aside). */
    boolean sameCourse(Fwrr o) {
        return servers.equals(o.servers) && Arrays.equals(weight, o.weight) && Arrays.equals(npos, o.npos)
                && Arrays.equals(lpos, o.lpos) && Arrays.equals(rweight, o.rweight) && currWeight == o.currWeight
                && nextWeight == o.nextWeight && Objects.equals(order(CURR), o.order(CURR))
                && Objects.equals(order(init), o.order(init)) && Objects.equals(order(next), o.order(next));
    }

    private List<Long> order(int t) {
        List<Long> keys = new ArrayList<>();
        for (Node n : trees.get(t)) {
            keys.add(n.key() << 16 | n.server());
        }
        return keys;
    }
}
