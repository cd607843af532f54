package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How {@code hangar admin} commands map to requests of the administration API, and what it refuses. */
class AdminCommandTest {

    private static AdminCommand.Call call(String... args) throws AdminCommand.UsageException {
        AdminCommand.Options options = AdminCommand.Options.parse(List.of(args));
        return AdminCommand.call(options.words(), options.flags());
    }

    @Test
    void keyCommandsMapToTheAccessKeysEndpointWithTypedFlags() throws Exception {
        assertThat(call("keys", "list")).isEqualTo(new AdminCommand.Call("GET", "/actuator/accesskeys", null));
        assertThat(call("keys", "create", "--bucket", "photos", "--read", "--create-buckets"))
            .isEqualTo(new AdminCommand.Call("POST", "/actuator/accesskeys",
                Map.of("bucket", "photos", "read", true, "createBuckets", true)));
        assertThat(call("keys", "grant", "HK1", "--bucket=photos", "--write", "--owner=false"))
            .isEqualTo(new AdminCommand.Call("POST", "/actuator/accesskeys/HK1",
                Map.of("bucket", "photos", "write", true, "owner", false)));
        assertThat(call("keys", "revoke", "HK1")).isEqualTo(new AdminCommand.Call("DELETE", "/actuator/accesskeys/HK1", null));
    }

    @Test
    void bucketCommandsGoToTheS3ApiAsTheRootKey() throws Exception {
        assertThat(call("buckets", "list")).isEqualTo(new AdminCommand.Call("GET", "/admin/s3/", null));
        assertThat(call("buckets", "create", "photos")).isEqualTo(new AdminCommand.Call("PUT", "/admin/s3/photos", null));
        assertThat(call("buckets", "create", "locked", "--object-lock")).isEqualTo(new AdminCommand.Call("PUT",
            "/admin/s3/locked", null, Map.of("x-amz-bucket-object-lock-enabled", "true")));
        assertThat(call("buckets", "delete", "photos")).isEqualTo(new AdminCommand.Call("DELETE", "/admin/s3/photos", null));
        assertThatThrownBy(() -> call("buckets", "create", "Not_A/Bucket")).hasMessageContaining("is not a bucket name");
        assertThatThrownBy(() -> call("buckets", "delete")).hasMessageContaining("give one bucket name");
        assertThatThrownBy(() -> call("buckets", "list", "photos")).hasMessageContaining("takes no argument");
    }

    @Test
    void storageLifecycleAndLayoutCommandsCarryTheirActions() throws Exception {
        assertThat(call("storage", "scrub", "--wait", "--orphan-grace", "2h")).isEqualTo(new AdminCommand.Call("POST",
            "/actuator/storage", Map.of("action", "scrub", "wait", true, "orphanGrace", "2h")));
        assertThat(call("lifecycle", "run", "--as-of", "2030-01-01T00:00:00Z")).isEqualTo(new AdminCommand.Call("POST",
            "/actuator/lifecycle", Map.of("asOf", "2030-01-01T00:00:00Z")));
        assertThat(call("layout", "stage", "n3", "--zone", "z2", "--capacity", "2")).isEqualTo(new AdminCommand.Call("POST",
            "/actuator/cluster", Map.of("action", "stage", "node", "n3", "zone", "z2", "capacity", 2L)));
        assertThat(call("layout", "apply", "4")).isEqualTo(new AdminCommand.Call("POST", "/actuator/cluster",
            Map.of("action", "apply", "version", 4L)));
    }

    @Test
    void refusesWhatItWouldOtherwiseIgnore() {
        assertThatThrownBy(() -> call("keys", "list", "--bucket", "b")).hasMessageContaining("takes no [--bucket]");
        assertThatThrownBy(() -> call("keys", "delete", "HK1")).hasMessageContaining("unknown command 'keys delete HK1'");
        assertThatThrownBy(() -> call("keys", "revoke")).hasMessageContaining("give one key id");
        assertThatThrownBy(() -> call("keys", "create", "--read=yes")).hasMessageContaining("--read is true or false");
        assertThatThrownBy(() -> call("layout", "apply", "latest")).hasMessageContaining("not a whole number");
        assertThatThrownBy(() -> call("storage", "status", "extra")).hasMessageContaining("takes no argument");
        // A token is never taken from the command line, where other users see it in the process list.
        assertThatThrownBy(() -> call("keys", "list", "--token", "secret")).hasMessageContaining("takes no [--token]");
    }
}
