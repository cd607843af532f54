package dev.hangar.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AdminClientTest {

    @Test
    void readsTheMetadataRoundsPerOperationFromThePrometheusExposition() {
        String exposition = """
                # HELP hangar_cluster_rounds Sequential rounds of inter-node calls per S3 request
                # TYPE hangar_cluster_rounds summary
                hangar_cluster_rounds_count{application="hangar",kind="metadata",operation="PutObject"} 12
                hangar_cluster_rounds_sum{application="hangar",kind="metadata",operation="PutObject"} 84.0
                hangar_cluster_rounds_count{application="hangar",kind="blocks",operation="PutObject"} 12
                hangar_cluster_rounds_sum{application="hangar",kind="blocks",operation="PutObject"} 36.0
                hangar_cluster_rounds_max{application="hangar",kind="metadata",operation="PutObject"} 7.0
                hangar_cluster_rounds_count{application="hangar",kind="metadata",operation="GetObject"} 3
                hangar_cluster_rounds_sum{application="hangar",kind="metadata",operation="GetObject"} 0.0
                hangar_s3_requests_seconds_count{operation="PutObject"} 12
                """;
        Map<String, double[]> rounds = AdminClient.parseRounds(exposition);
        assertThat(rounds).containsOnlyKeys("PutObject", "GetObject");
        assertThat(rounds.get("PutObject")).containsExactly(84.0, 12.0);
        assertThat(rounds.get("GetObject")).containsExactly(0.0, 3.0);
        assertThat(S3Lat.perRequest(new double[] {84, 12}, new double[] {154, 22})).isEqualTo(7.0);
        assertThat(S3Lat.perRequest(null, new double[] {3, 3})).isEqualTo(1.0);
        assertThat(S3Lat.perRequest(new double[] {3, 3}, new double[] {3, 3})).isNaN();
        assertThat(S3Lat.perRequest(null, null)).isNaN();
    }
}
