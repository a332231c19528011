package io.fulcrum.backend;

import io.fulcrum.sample.Hashes;
import io.fulcrum.sample.SampleContext;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * HAProxy's consistent hashing (lb_chash.c): each server has one point on a 32-bit ring per unit of its
 * effective weight (16 per unit of weight at full speed), point k of the server with id N at
 * {@code avalanche(N * 4096 + k)}. A key goes to the nearest point, the one before it on a tie; a server
 * left out ({@code avoid}, or over its bound with {@code hash-balance-factor}) passes the key on to the
 * next points. Picking binary-searches an immutable sorted array.
 */
final class HashRing implements Balancer {
    /** HAProxy's SRV_EWGHT_RANGE: the points of a server id are numbered from id * 4096. */
    private static final int RANGE = 256 * Member.SCALE;

    private record Ring(long[] points, Member[] owners, Farm farm) {
    }

    private volatile Ring ring = new Ring(new long[0], new Member[0], Farm.EMPTY);
    private final int balanceFactor;
    private final AtomicInteger cursor = new AtomicInteger();

    /** @param balanceFactor {@code hash-balance-factor}, 0 for none */
    HashRing(int balanceFactor) {
        this.balanceFactor = balanceFactor;
    }

    @Override
    public void plan(Farm farm) {
        int count = 0;
        for (int w : farm.weights) {
            count += w;
        }
        long[] keyed = new long[count];
        int n = 0;
        for (int i = 0; i < farm.members.length; i++) {
            long id = farm.members[i].server.numericId();
            for (int k = 0; k < farm.weights[i]; k++) {
                // the point's key in the high half, the member's index in the low half, to sort both at once
                // (the sign bit flipped: signed order is then the keys' unsigned order)
                keyed[n++] = (Hashes.avalanche(id * RANGE + k) << 32 | i) ^ Long.MIN_VALUE;
            }
        }
        Arrays.sort(keyed);
        long[] points = new long[count];
        Member[] owners = new Member[count];
        for (int j = 0; j < count; j++) {
            keyed[j] ^= Long.MIN_VALUE;
            points[j] = keyed[j] >>> 32;
            owners[j] = farm.members[(int) (keyed[j] & 0xffffffffL)];
        }
        ring = new Ring(points, owners, farm);
    }

    /** chash_get_server_hash(): the server nearest to {@code hash} on the ring; null when the ring is empty. */
    Member byHash(long hash, Member avoid) {
        Ring r = ring;
        int n = r.points.length;
        if (n == 0) {
            return null;
        }
        int next = Arrays.binarySearch(r.points, hash);
        if (next < 0) {
            next = -next - 1;
        }
        if (next == n) {
            next = 0;
        }
        int prev = next == 0 ? n - 1 : next - 1;
        long dp = (hash - r.points[prev]) & 0xffffffffL;
        long dn = (r.points[next] - hash) & 0xffffffffL;
        int at = dp <= dn ? prev : next;
        for (int loops = 0; loops < n; loops++) {
            Member m = r.owners[at];
            if (m != avoid && (balanceFactor == 0 || eligible(r.farm, m))) {
                return m;
            }
            at = at + 1 == n ? 0 : at + 1;
        }
        return r.owners[at];
    }

    /**
     * chash_server_is_eligible(): bounded loads. The backend's streams plus this one, times the factor, are
     * shared out as slots by weight; a server is eligible while it serves fewer than its share.
     */
    private boolean eligible(Farm farm, Member m) {
        int i = farm.indexOf(m);
        long total = farm.total;
        long slots = ((m.backend.served() + 1L) * balanceFactor + 99) / 100;
        long perWeight = slots / total;
        long remainder = slots % total;
        long w = farm.weights[i];
        long mine = w * perWeight + (farm.cumulative[i] + w) * remainder / total - farm.cumulative[i] * remainder / total;
        return m.served() < Math.max(1, mine);
    }

    /** chash_get_next_server(): the points in turn (weighted round robin), for a request without a key. */
    @Override
    public Member pick(SampleContext ctx, Member avoid) {
        Ring r = ring;
        int n = r.owners.length;
        if (n == 0) {
            return null;
        }
        return Balancer.firstFree(r.owners, Math.floorMod(cursor.getAndIncrement(), n), avoid);
    }
}
