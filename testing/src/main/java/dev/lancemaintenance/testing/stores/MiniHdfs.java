package dev.lancemaintenance.testing.stores;

import dev.lancemaintenance.storage.StorageConf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A real HDFS in the test JVM: Hadoop's {@link MiniDFSCluster} with one name node and one data
 * node, bound to 127.0.0.1 on free ports, keeping its blocks under a caller-owned temporary
 * directory. Start one per test class; every engine's tests reach it through {@link #uri(String)}
 * and {@link #storageConf()}.
 */
public final class MiniHdfs implements AutoCloseable {
  private final MiniDFSCluster cluster;
  private final URI root;

  private MiniHdfs(MiniDFSCluster cluster) {
    this.cluster = cluster;
    // The name node listens on loopback; name it by address, not by "localhost".
    this.root = URI.create("hdfs://127.0.0.1:" + cluster.getNameNodePort());
  }

  /** Starts the cluster with its name and data directories under {@code baseDir}. */
  public static MiniHdfs start(Path baseDir) {
    // The builder below sets MiniDFSCluster.HDFS_MINIDFS_BASEDIR itself; Hadoop 3.3's refuses a
    // configuration that already has it ("base directory already defined").
    Configuration conf = new Configuration();
    // Loopback only, on free ports: CI machines run several builds side by side.
    conf.set("dfs.namenode.rpc-bind-host", "127.0.0.1");
    conf.set("dfs.namenode.http-address", "127.0.0.1:0");
    conf.set("dfs.datanode.address", "127.0.0.1:0");
    conf.set("dfs.datanode.http.address", "127.0.0.1:0");
    conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
    // One data node: a replica count of 3 would leave every block under-replicated.
    conf.setInt("dfs.replication", 1);
    // Small tables, no need for the default 128 MB block reservation.
    conf.setLong("dfs.blocksize", 1024 * 1024);
    // Start-up waits for the data node's first heartbeat; the default interval is 3 s.
    conf.setLong("dfs.heartbeat.interval", 1);
    try {
      MiniDFSCluster cluster =
          new MiniDFSCluster.Builder(conf, baseDir.toFile())
              .numDataNodes(1)
              .storagesPerDatanode(1)
              .checkDataNodeHostConfig(true)
              .build();
      cluster.waitActive();
      return new MiniHdfs(cluster);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start MiniDFSCluster under " + baseDir, e);
    }
  }

  /** {@code hdfs://127.0.0.1:<port>} plus {@code path} (absolute, starting with {@code /}). */
  public String uri(String path) {
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("HDFS path must be absolute: " + path);
    }
    return root.toString() + path;
  }

  /** Settings any Hadoop client needs to talk to this cluster (the default file system). */
  public Map<String, String> hadoopSettings() {
    return Map.of("fs.defaultFS", root.toString(), "dfs.replication", "1",
        // A closing file waits for the data node to report its block; the client's first wait is
        // 400 ms, mostly idle here, where the report follows within milliseconds.
        "dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20");
  }

  /** The settings above as the storage configuration our engines ship to their tasks. */
  public StorageConf storageConf() {
    return StorageConf.of(hadoopSettings());
  }

  /** The same settings as a Hadoop {@link Configuration}. */
  public Configuration configuration() {
    return storageConf().toConfiguration();
  }

  @Override
  public void close() {
    cluster.shutdown(true);
  }
}
