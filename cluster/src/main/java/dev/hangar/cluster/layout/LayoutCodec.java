package dev.hangar.cluster.layout;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Binary form of a {@link ClusterLayout}, for persisting it and sending it between nodes.
 *
 * <p>Format version 1, big-endian ({@link DataOutputStream}): format byte, layout version (long),
 * partitions (int), replication factor (int), role count (int), each role as node id (UTF), zone
 * (UTF) and capacity (long), then per partition a replica count (unsigned byte) and each replica as
 * its index in the role list (unsigned short). Indices rather than ids keep 256 partitions × 3
 * replicas at about 1.5 KiB whatever the id length. The leading format byte lets a later version be
 * read beside this one during a rolling upgrade.
 */
public final class LayoutCodec {
    /** The format byte this codec writes. */
    public static final byte FORMAT = 1;

    private LayoutCodec() {}

    public static byte[] encode(ClusterLayout layout) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeLong(layout.version());
            out.writeInt(layout.partitions());
            out.writeInt(layout.replicationFactor());
            out.writeInt(layout.roles().size());
            Map<NodeId, Integer> index = new HashMap<>();
            for (NodeRole role : layout.roles()) {
                index.put(role.id(), index.size());
                out.writeUTF(role.id().value());
                out.writeUTF(role.zone());
                out.writeLong(role.capacity());
            }
            for (List<NodeId> replicas : layout.assignment()) {
                out.writeByte(replicas.size());
                for (NodeId node : replicas) {
                    out.writeShort(index.get(node));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return bytes.toByteArray();
    }

    /** Decodes a layout; {@link IllegalArgumentException} if the bytes are not a valid layout. */
    public static ClusterLayout decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int format = in.readUnsignedByte();
            if (format != FORMAT) {
                throw new IllegalArgumentException("unknown layout format " + format + ", this node reads " + FORMAT);
            }
            long version = in.readLong();
            int partitions = in.readInt();
            int replicationFactor = in.readInt();
            int roleCount = in.readInt();
            if (roleCount < 0 || roleCount > 0xffff || partitions < 1 || partitions > 1 << 16) {
                throw new IllegalArgumentException("corrupt layout header");
            }
            List<NodeRole> roles = new ArrayList<>(roleCount);
            for (int i = 0; i < roleCount; i++) {
                roles.add(new NodeRole(new NodeId(in.readUTF()), in.readUTF(), in.readLong()));
            }
            List<List<NodeId>> assignment = new ArrayList<>(partitions);
            for (int p = 0; p < partitions; p++) {
                int count = in.readUnsignedByte();
                List<NodeId> replicas = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    int role = in.readUnsignedShort();
                    if (role >= roleCount) {
                        throw new IllegalArgumentException("partition " + p + " names role " + role + " of " + roleCount);
                    }
                    replicas.add(roles.get(role).id());
                }
                assignment.add(replicas);
            }
            if (in.read() != -1) {
                throw new IllegalArgumentException("trailing bytes after layout");
            }
            return new ClusterLayout(version, partitions, replicationFactor, roles, assignment);
        } catch (EOFException e) {
            throw new IllegalArgumentException("truncated layout", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
