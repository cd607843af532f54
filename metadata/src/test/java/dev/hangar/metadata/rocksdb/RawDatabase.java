package dev.hangar.metadata.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.TableProperties;
import org.rocksdb.UInt64AddOperator;

/**
 * A closed store's folder opened with plain RocksDB, to see or change its actual layout. Every
 * family is opened, the counters with their merge operator: without it RocksDB would stop replaying
 * the log at the first merge operand, and drop the rest.
 */
record RawDatabase(RocksDB db, List<ColumnFamilyHandle> handles) {

    @FunctionalInterface
    interface Check {
        void accept(RawDatabase db) throws RocksDBException;
    }

    /** Opens the folder read-only. */
    static void read(Path folder, Check check) throws RocksDBException {
        open(folder, true, check);
    }

    /** Opens the folder to change it. */
    static void write(Path folder, Check change) throws RocksDBException {
        open(folder, false, change);
    }

    private static void open(Path folder, boolean readOnly, Check body) throws RocksDBException {
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (UInt64AddOperator counters = new UInt64AddOperator();
                ColumnFamilyOptions countersOptions = new ColumnFamilyOptions().setMergeOperator(counters);
                DBOptions options = new DBOptions()) {
            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY));
            for (Family family : Family.values()) {
                descriptors.add(family == Family.COUNTERS
                        ? new ColumnFamilyDescriptor(family.nameBytes(), countersOptions)
                        : new ColumnFamilyDescriptor(family.nameBytes()));
            }
            try (RocksDB db = readOnly
                    ? RocksDB.openReadOnly(options, folder.toString(), descriptors, handles)
                    : RocksDB.open(options, folder.toString(), descriptors, handles)) {
                body.accept(new RawDatabase(db, handles));
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }

    ColumnFamilyHandle handle(Family family) {
        return handles.get(family.ordinal() + 1);
    }

    /** The value of a key that must be there. */
    byte[] get(Family family, byte[] key) {
        try {
            byte[] value = db.get(handle(family), key);
            assertThat(value).as("%s key %s", family, new String(key, UTF_8)).isNotNull();
            return value;
        } catch (RocksDBException e) {
            throw new AssertionError(e);
        }
    }

    void put(Family family, byte[] key, byte[] value) throws RocksDBException {
        db.put(handle(family), key, value);
    }

    List<byte[]> keys(Family family) {
        List<byte[]> keys = new ArrayList<>();
        try (RocksIterator iterator = db.newIterator(handle(family))) {
            for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
                keys.add(iterator.key());
            }
        }
        return keys;
    }

    /** The properties of every SST file of a family. */
    List<TableProperties> tables(Family family) throws RocksDBException {
        return List.copyOf(db.getPropertiesOfAllTables(handle(family)).values());
    }
}
