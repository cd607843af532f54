package dev.hangar.cluster.table;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.hangar.cluster.layout.NodeId;
import java.util.List;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** {@link MergeRule#LAST_WRITER_WINS} keeps the laws of a merge rule. */
class LastWriterWinsLawsTest {
    private static final byte[] PARTITION_KEY = "bucket".getBytes(UTF_8);
    private static final byte[] SORT_KEY = "key".getBytes(UTF_8);
    private static final List<NodeId> NODES = List.of(new NodeId("a"), new NodeId("b"), new NodeId("c"));

    @Test
    void mergeIsATotalOrderThatIsCommutativeAssociativeAndIdempotent() {
        MergeRuleLaws.check(MergeRule.LAST_WRITER_WINS, MergeRuleLaws.seed(), 5_000, LastWriterWinsLawsTest::entry);
    }

    // Few distinct timestamps and values, so that ties (which the rule must still order) are frequent.
    private static Entry entry(RandomGenerator random) {
        Timestamp timestamp = new Timestamp(random.nextInt(4), random.nextInt(3), NODES.get(random.nextInt(3)));
        if (random.nextInt(4) == 0) {
            return Entry.tombstone(PARTITION_KEY, SORT_KEY, timestamp);
        }
        byte[] value = new byte[random.nextInt(3)];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) random.nextInt(2);
        }
        return Entry.of(PARTITION_KEY, SORT_KEY, value, timestamp);
    }
}
