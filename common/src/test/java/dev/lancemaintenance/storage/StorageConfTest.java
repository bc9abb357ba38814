package dev.lancemaintenance.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link StorageConf}'s configuration is what {@code new Configuration()} plus its entries would
 * be, though Hadoop's defaults are parsed once and copied: the same defaults and site files, the
 * entries on top, a configuration of its own, and the calling thread's class loader.
 */
class StorageConfTest {
  @TempDir Path dir;

  @Test
  void entriesOverHadoopsDefaults() {
    Configuration fresh = new Configuration();
    Configuration conf = StorageConf.of(Map.of("fs.s3a.endpoint", "http://127.0.0.1:9000")).toConfiguration();

    assertThat(conf.get("fs.s3a.endpoint")).isEqualTo("http://127.0.0.1:9000");
    assertThat(conf.get("hadoop.tmp.dir")).isEqualTo(fresh.get("hadoop.tmp.dir")).isNotNull();
    assertThat(conf.size()).isEqualTo(fresh.size() + (fresh.get("fs.s3a.endpoint") == null ? 1 : 0));
  }

  @Test
  void eachInstanceHasAConfigurationOfItsOwn() throws Exception {
    StorageConf conf = StorageConf.of(Map.of("a.key", "first"));
    Configuration one = conf.toConfiguration();
    one.set("set.by.one", "x");
    Configuration other = StorageConf.of(Map.of("a.key", "second")).toConfiguration();
    Configuration deserialized = roundTrip(conf).toConfiguration();

    assertThat(conf.toConfiguration()).isSameAs(one);
    assertThat(other.get("a.key")).isEqualTo("second");
    assertThat(other.get("set.by.one")).isNull();
    assertThat(deserialized).isNotSameAs(one);
    assertThat(deserialized.get("a.key")).isEqualTo("first");
    assertThat(deserialized.get("set.by.one")).isNull();
    assertThat(new Configuration().get("set.by.one")).isNull();
  }

  @Test
  void takesTheCallingThreadsClassLoaderAndItsSiteFiles() throws Exception {
    // A class loader that sees a core-site.xml of its own, as an application's or a job's may.
    Path site = Files.createDirectories(dir.resolve("site"));
    Files.writeString(site.resolve("core-site.xml"), "<configuration><property><name>site.only.key</name>"
        + "<value>from-site</value></property></configuration>", StandardCharsets.UTF_8);
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    Configuration outside = StorageConf.defaults().toConfiguration();
    try (URLClassLoader withSite = new URLClassLoader(new URL[] {site.toUri().toURL()}, before)) {
      thread.setContextClassLoader(withSite);
      Configuration inside = StorageConf.defaults().toConfiguration();
      assertThat(inside.getClassLoader()).isSameAs(withSite);
      assertThat(inside.get("site.only.key")).isEqualTo(new Configuration().get("site.only.key")).isEqualTo("from-site");
    } finally {
      thread.setContextClassLoader(before);
    }
    Configuration after = StorageConf.defaults().toConfiguration();

    assertThat(outside.get("site.only.key")).isNull();
    assertThat(after.getClassLoader()).isSameAs(before);
    assertThat(after.get("site.only.key")).isNull();
  }

  private static StorageConf roundTrip(StorageConf conf) throws IOException, ClassNotFoundException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(conf);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (StorageConf) in.readObject();
    }
  }
}
