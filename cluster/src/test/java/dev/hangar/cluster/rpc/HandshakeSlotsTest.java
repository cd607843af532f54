package dev.hangar.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class HandshakeSlotsTest {
    private static final InetAddress ONE = InetAddress.getLoopbackAddress();
    private static final InetAddress OTHER = address(10, 0, 0, 2);
    private static final InetAddress THIRD = address(10, 0, 0, 3);

    @Test
    void oneAddressGetsItsShareAndTheTotalIsBounded() {
        HandshakeSlots slots = new HandshakeSlots(3, 2);
        assertThat(slots.take(ONE)).isTrue();
        assertThat(slots.take(ONE)).isTrue();
        assertThat(slots.take(ONE)).as("a third from one address").isFalse();
        assertThat(slots.take(OTHER)).isTrue();
        assertThat(slots.take(THIRD)).as("beyond the total").isFalse();
        assertThat(slots.taken()).isEqualTo(3);

        slots.release(ONE);
        assertThat(slots.take(THIRD)).isTrue();
        assertThat(slots.take(ONE)).isFalse();
        slots.release(ONE);
        slots.release(OTHER);
        slots.release(THIRD);
        assertThat(slots.taken()).isZero();
        assertThatThrownBy(() -> slots.release(ONE)).isInstanceOf(IllegalStateException.class);
    }

    private static InetAddress address(int... bytes) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) bytes[0], (byte) bytes[1], (byte) bytes[2], (byte) bytes[3]});
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
