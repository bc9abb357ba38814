package dev.lancemaintenance.local;

import static dev.lancemaintenance.storage.Leases.deadPid;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.LeaseHolder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spill directories left by runs that died (kill -9) go at the next run; live and foreign ones stay. */
class SpillsTest {
  @TempDir Path temp;

  @Test
  void theNextRunRemovesTheSpillOfADeadRunAndKeepsTheOthers() throws Exception {
    LeaseHolder self = LeaseHolder.ofOwner("spill");
    Path dead = spill("lance-cleanup-dead", deadPid() + "\n" + self.processStartMillis() + "\n" + self.machine() + "\n");
    Path live = spill("lance-cleanup-live", self.pid() + "\n" + self.processStartMillis() + "\n" + self.machine() + "\n");
    Path foreign = spill("lance-cleanup-foreign", deadPid() + "\n1\nanother-machine\n");
    Path unmarked = Files.createDirectory(temp.resolve("lance-cleanup-unmarked"));
    Files.writeString(dead.resolve("files-0"), "data/secret-path.lance");

    try (Spills run = new Spills(temp, 2)) {
      assertThat(dead).as("the dead run's spill, with the table's paths").doesNotExist();
      assertThat(live).as("a live run's spill").exists();
      assertThat(foreign).as("a spill of another machine: its pid says nothing here").exists();
      assertThat(unmarked).as("an unmarked directory").exists();
    }
    try (Stream<Path> left = Files.list(temp)) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .as("this run's own spill went at its end")
          .containsExactlyInAnyOrder("lance-cleanup-live", "lance-cleanup-foreign", "lance-cleanup-unmarked");
    }
  }

  @Test
  void aRunKilledMidSpillIsRecognisedAsDeadFromItsOwnMark() throws Exception {
    Process child = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"),
            SpillingChild.class.getName(), temp.toString())
        .redirectErrorStream(true)
        .start();
    String ready = new String(child.getInputStream().readNBytes("spilling\n".length()));
    assertThat(ready).isEqualTo("spilling\n");
    child.destroyForcibly().waitFor();
    try (Stream<Path> left = Files.list(temp)) {
      assertThat(left.toList()).as("the killed run's spill").hasSize(1);
    }

    new Spills(temp, 1).close();

    try (Stream<Path> left = Files.list(temp)) {
      assertThat(left.toList()).as("spills after the next run").isEmpty();
    }
  }

  /** A run that spills and then waits to be killed. */
  static final class SpillingChild {
    public static void main(String[] args) throws Exception {
      Spills spills = new Spills(Path.of(args[0]), 1);
      spills.addExpiredManifest(new dev.lancemaintenance.cleanup.CandidateFile(
          "_versions/1.manifest", dev.lancemaintenance.format.FileKind.MANIFEST, 10,
          dev.lancemaintenance.cleanup.RemovalReason.values()[0]));
      spills.expiredManifests().count();
      System.out.print("spilling\n");
      System.out.flush();
      Thread.sleep(600_000);
    }
  }

  private Path spill(String name, String owner) throws Exception {
    Path dir = Files.createDirectory(temp.resolve(name));
    Files.writeString(dir.resolve(Spills.OWNER_FILE), owner);
    return dir;
  }

}
