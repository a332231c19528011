package io.fulcrum.sample;

/** Expected values and messages come from haproxy 2.6.12, unless a comment says otherwise. */
class HashConvertersTest extends ConverterTableTest {

    @Override
    String results() {
        return """
            str(),crc32 => sint:0
            str(a),crc32 => sint:3904355907
            str(hello world),crc32 => sint:222957957
            str(hello world),crc32(1) => sint:2832483188
            str(hello world),crc32(2) => sint:2832483188
            str(hello world),crc32(0) => sint:222957957
            str(hello world),crc32(-1) => sint:2832483188
            int(5),crc32 => sint:357051366
            str(hello world),crc32c => sint:3381945770
            str(hello world),crc32c(1) => sint:2656343177
            str(),crc32c => sint:0
            str(hello world),djb2 => sint:894552257
            str(hello world),djb2(1) => sint:2328455893
            str(),djb2 => sint:5381
            str(hello world),sdbm => sint:430867652
            str(hello world),sdbm(1) => sint:261123301
            str(),sdbm => sint:0
            str(hello world),wt6 => sint:1866899626
            str(hello world),wt6(1) => sint:2174767729
            str(),wt6 => sint:4187620192
            str(The quick brown fox jumps over the lazy dog),wt6 => sint:3840389189
            str(\\xff\\x80),wt6 => sint:2734251933
            str(hello world),xxh32 => sint:3468387874
            str(hello world),xxh32(1) => sint:3781620524
            str(hello world),xxh32(-1) => sint:22533132
            str(hello world),xxh32(4294967297) => sint:3781620524
            str(),xxh32 => sint:46947589
            str(hello world),xxh64 => sint:5020219685658847592
            str(hello world),xxh64(1) => sint:-5757003553413548089
            str(hello world),xxh64(-1) => sint:-3166369512892959104
            str(),xxh64 => sint:-1205034819632174695
            str(hello world),xxh3 => sint:-3150353794653054837
            str(hello world),xxh3(1) => sint:-5211028526542770387
            str(hello world),xxh3(-1) => sint:1532303278855150583
            str(),xxh3 => sint:3244421341483603138
            str(),xxh3(5) => sint:4075412128446734485
            str(),crc32(1) => sint:2874071335
            str(a),djb2(1) => sint:3548763807
            str(abcdefgh),sdbm(1) => sint:1612265973
            str(a),wt6(1) => sint:1986649387
            str(xyz),crc32c(1) => sint:2269090613
            str(The quick brown fox jumps over the lazy dog),djb2 => sint:885799134
            str(The quick brown fox jumps over the lazy dog),sdbm => sint:2359783795
            str(The quick brown fox jumps over the lazy dog),crc32c => sint:576848900
            str(The quick brown fox jumps over the lazy dog),xxh32(7) => sint:281567130
            str(The quick brown fox jumps over the lazy dog),xxh64(7) => sint:8296357458231076661
            str(The quick brown fox jumps over the lazy dog),xxh3(7) => sint:-3679463819419824509
            str(The quick brown fox jumps over the lazy dog),xxh3 => sint:-3567667132247329947
            str(The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.),xxh3 => sint:2423607513072284584
            str(The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.),xxh3(42) => sint:8172056914081186712
            str(The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.),xxh64(42) => sint:-647922749117023747
            str(The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.),xxh32(42) => sint:3720991997
            str(The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.The_quick_brown_fox_jumps_over_the_lazy_dog.),bytes(0,200),xxh3(42) => sint:-8588672492444682767
            """;
    }

    @Override
    String errors() {
        return """
            str(a),crc32(1 => invalid arg 2 in converter 'crc32' : expected ')'
            str(a),crc32(x) => invalid arg 1 in converter 'crc32' : failed to parse 'x' as type 'integer' at position 1
            str(a),crc32(1,2) => invalid arg 2 in converter 'crc32' : expected ')' before ',2)'
            str(a),xxh3(a) => invalid arg 1 in converter 'xxh3' : failed to parse 'a' as type 'integer' at position 1
            str(a),wt6(1,1) => invalid arg 2 in converter 'wt6' : expected ')' before ',1)'
            """;
    }
}
