package dev.lancemaintenance.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A real headless Chromium for tests of HTML pages: {@code headless-browser/render.mjs} drives the
 * Chromium that npm {@code @sparticuz/chromium} 143.0.0 ships (a real browser binary inside the
 * package, unpacked on first use) through {@code puppeteer-core} 24.31.0, both pinned by the
 * project's lock file and installed as {@link NodeProject}. It loads a page from disk, waits until
 * the page's scripts have drawn it, and returns what the page shows: the cells of every table, the
 * text of every element with an id, the value labels of the charts; and any script error or any
 * request that left the page (a self-contained page makes none).
 */
public final class HeadlessBrowser {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> FILES = List.of("package.json", "package-lock.json", "render.mjs");
  private static Path installed;

  private HeadlessBrowser() {}

  /** What a rendered page showed. */
  public record Shown(JsonNode page) {
    /** The rows of table {@code id}, each a list of its cells' text. */
    public List<List<String>> table(String id) {
      List<List<String>> rows = new ArrayList<>();
      page.path("tables").path(id).forEach(row -> {
        List<String> cells = new ArrayList<>();
        row.forEach(cell -> cells.add(cell.asText()));
        rows.add(cells);
      });
      return rows;
    }

    /** The text of the element with id {@code id}. */
    public String text(String id) {
      return page.path("texts").path(id).asText();
    }

    /** The value the windows chart writes above the bar of {@code window}. */
    public String windowValue(String window) {
      return page.path("windowValues").path(window).asText();
    }

    /** How many points the versions chart draws. */
    public int versionPoints() {
      return page.path("versionPoints").asInt();
    }

    /** Script errors the page raised. */
    public List<String> errors() {
      return texts(page.path("errors"));
    }

    /** Requests the page tried to make beyond its own file. */
    public List<String> requests() {
      return texts(page.path("requests"));
    }

    private static List<String> texts(JsonNode array) {
      List<String> texts = new ArrayList<>();
      array.forEach(node -> texts.add(node.asText()));
      return texts;
    }
  }

  /** Renders {@code page} and returns what it shows; with a screenshot path, also saves the page as PNG. */
  public static Shown render(Path page, Optional<Path> screenshot) {
    try {
      Path installation = installation();
      // The browser unpacks into TMPDIR: the installation's own, so parallel builds do not share it.
      Path tmp = Files.createDirectories(installation.resolve("tmp"));
      List<String> command = new ArrayList<>(List.of("node", installation.resolve("render.mjs").toString(),
          page.toAbsolutePath().toString()));
      screenshot.ifPresent(png -> command.add(png.toAbsolutePath().toString()));
      ProcessBuilder builder = new ProcessBuilder(command).directory(installation.toFile());
      builder.environment().put("TMPDIR", tmp.toString());
      Path stderr = Files.createTempFile(tmp, "render-", ".err");
      Process node = builder.redirectError(stderr.toFile()).start();
      node.getOutputStream().close();
      byte[] out = node.getInputStream().readAllBytes();
      int exit = NodeProject.waitFor(node, "the headless browser");
      String errors = Files.readString(stderr);
      Files.delete(stderr);
      if (exit != 0 || out.length == 0) {
        throw new IllegalStateException("headless browser failed on " + page + " (exit " + exit + "):\n" + errors);
      }
      return new Shown(JSON.readTree(out));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot render " + page + " in the headless browser", e);
    }
  }

  private static synchronized Path installation() throws IOException {
    if (installed == null) {
      installed = NodeProject.install(
          "headless-browser", FILES, "node_modules/@sparticuz/chromium/package.json", "headless.browser.dir");
    }
    return installed;
  }
}
