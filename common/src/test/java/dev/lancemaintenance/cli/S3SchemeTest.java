package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The command line opens {@code s3://} with S3A, unless the user maps the scheme. */
class S3SchemeTest {
  private static CliArguments parse(String... args) {
    return CliArguments.parse(List.of(args), Set.of(), Set.of("conf"));
  }

  @Test
  void s3IsS3aByDefault() {
    assertThat(parse("s3://b/t.lance", "--conf", "fs.s3a.endpoint=http://127.0.0.1:9000").hadoopConf())
        .containsEntry("fs.s3.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem")
        .containsEntry("fs.s3a.endpoint", "http://127.0.0.1:9000");
  }

  @Test
  void theUsersMappingWins() {
    assertThat(parse("s3://b/t.lance", "--conf", "fs.s3.impl=com.amazon.ws.emr.hadoop.fs.EmrFileSystem").hadoopConf())
        .containsEntry("fs.s3.impl", "com.amazon.ws.emr.hadoop.fs.EmrFileSystem");
  }
}
