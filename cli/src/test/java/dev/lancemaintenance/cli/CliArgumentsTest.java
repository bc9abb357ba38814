package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The grammar of every subcommand: declared flags and valued options, positionals, and the
 * mistakes that must be usage errors rather than a run with other settings than the user meant.
 */
class CliArgumentsTest {
  private static final Set<String> FLAGS = Set.of("dry-run", "json");
  private static final Set<String> VALUED = Set.of("older-than", "spill-dir", "conf", "parallelism");

  private static CliArguments parse(String... args) {
    return CliArguments.parse(List.of(args), FLAGS, VALUED);
  }

  @Test
  void separatesPositionalsFlagsAndValuesInAnyOrder() {
    CliArguments parsed = parse("--dry-run", "/t.lance", "--older-than", "7d", "extra");

    assertThat(parsed.positionals()).containsExactly("/t.lance", "extra");
    assertThat(parsed.flag("dry-run")).isTrue();
    assertThat(parsed.flag("json")).isFalse();
    assertThat(parsed.value("older-than")).isEqualTo("7d");
    assertThat(parsed.value("spill-dir")).isNull();
  }

  @Test
  void takesTheValueAfterAnEqualsSignToo() {
    CliArguments parsed = parse("/t.lance", "--older-than=PT2H", "--conf=fs.a=b=c");

    assertThat(parsed.value("older-than")).isEqualTo("PT2H");
    assertThat(parsed.keyValues("conf")).containsExactly(Map.entry("fs.a", "b=c"));
  }

  @Test
  void countsRepeatsAndTheLastValueIsTheValue() {
    CliArguments parsed = parse("--older-than", "7d", "--older-than", "0s", "--json", "--json");

    assertThat(parsed.count("older-than")).isEqualTo(2);
    assertThat(parsed.count("json")).isEqualTo(2);
    assertThat(parsed.count("spill-dir")).isZero();
    assertThat(parsed.value("older-than")).isEqualTo("0s");
  }

  @Test
  void anUndeclaredOptionIsAUsageErrorNamingIt() {
    assertThatThrownBy(() -> parse("/t.lance", "--dryrun"))
        .isInstanceOf(UsageException.class)
        .hasMessage("Unknown option --dryrun");
  }

  @Test
  void aValuedOptionWithoutItsValueIsAUsageError() {
    assertThatThrownBy(() -> parse("/t.lance", "--older-than"))
        .isInstanceOf(UsageException.class)
        .hasMessage("--older-than needs a value");
  }

  @Test
  void theNextOptionIsNeverTakenAsAValue() {
    // Else "--spill-dir --dry-run" would be a real run spilling to a directory called "--dry-run".
    assertThatThrownBy(() -> parse("/t.lance", "--spill-dir", "--dry-run"))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("--spill-dir needs a value")
        .hasMessageContaining("--dry-run");
    assertThat(parse("/t.lance", "--spill-dir=--odd-name").value("spill-dir"))
        .as("a value that starts with dashes, given with =")
        .isEqualTo("--odd-name");
  }

  @Test
  void aFlagGivenAValueIsAUsageErrorSayingItTakesNone() {
    assertThatThrownBy(() -> parse("/t.lance", "--dry-run=false"))
        .isInstanceOf(UsageException.class)
        .hasMessage("--dry-run takes no value, not 'false'");
  }

  @Test
  void askingForAnUndeclaredFlagIsAProgrammingError() {
    assertThatThrownBy(() -> parse("/t.lance").flag("verbose"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("verbose");
  }

  @Test
  void longValuesAreWholeNumbersOrTheDefault() {
    assertThat(parse("--parallelism", "8").longValue("parallelism", 1)).isEqualTo(8);
    assertThat(parse().longValue("parallelism", 1)).isEqualTo(1);
    assertThatThrownBy(() -> parse("--parallelism", "eight").longValue("parallelism", 1))
        .isInstanceOf(UsageException.class)
        .hasMessage("--parallelism must be a whole number, not 'eight'");
  }

  @Test
  void keyValuesKeepTheirOrderAndNeedAKey() {
    assertThat(parse("--conf", "b=2", "--conf", "a=", "--conf", "c=3").keyValues("conf"))
        .containsExactly(Map.entry("b", "2"), Map.entry("a", ""), Map.entry("c", "3"));
    assertThat(parse().keyValues("conf")).isEmpty();
    for (String bad : List.of("novalue", "=value")) {
      assertThatThrownBy(() -> parse("--conf", bad).keyValues("conf"))
          .isInstanceOf(UsageException.class)
          .hasMessage("--conf takes key=value, not '" + bad + "'");
    }
  }

  @Test
  void s3IsS3aByDefault() {
    assertThat(parse("s3://b/t.lance", "--conf", "fs.s3a.endpoint=http://127.0.0.1:9000").hadoopConf())
        .containsEntry("fs.s3.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem")
        .containsEntry("fs.s3a.endpoint", "http://127.0.0.1:9000");
  }

  @Test
  void aRunOnALocalTableLeavesTheS3MappingOutUnlessAnOptionNamesS3() {
    assertThat(parse("/tmp/t.lance", "--conf", "fs.s3a.endpoint=http://127.0.0.1:9000").hadoopConf())
        .as("a local table: Hadoop's configuration is not asked").doesNotContainKey("fs.s3.impl");
    assertThat(parse("file:/tmp/t.lance").hadoopConf()).doesNotContainKey("fs.s3.impl");
    assertThat(parse("s3a://b/t.lance").hadoopConf()).as("a table off this machine")
        .containsEntry("fs.s3.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
    assertThat(parse("/tmp/t.lance", "--spill-dir", "S3://b/report").hadoopConf()).as("an s3: option value")
        .containsEntry("fs.s3.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
  }

  @Test
  void theUsersS3MappingWins() {
    assertThat(parse("s3://b/t.lance", "--conf", "fs.s3.impl=com.amazon.ws.emr.hadoop.fs.EmrFileSystem").hadoopConf())
        .containsEntry("fs.s3.impl", "com.amazon.ws.emr.hadoop.fs.EmrFileSystem");
  }
}
