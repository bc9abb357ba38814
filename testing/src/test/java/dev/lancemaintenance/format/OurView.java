package dev.lancemaintenance.format;

import java.util.List;

/** Our reader's answers in the same string forms as {@link SdkView}. */
final class OurView {
  private OurView() {}

  static List<String> fragments(Manifest manifest) {
    return manifest.fragments().stream().map(OurView::describe).toList();
  }

  static List<String> indexUuids(Manifest manifest) {
    return manifest.indices().stream().map(IndexEntry::uuid).sorted().toList();
  }

  static List<String> tags(List<Tag> tags) {
    return tags.stream()
        .map(tag -> tag.name() + " -> " + tag.branch().orElse("main") + "@" + tag.version()
            + "/" + tag.manifestSize())
        .sorted().toList();
  }

  static List<String> branches(List<Branch> branches) {
    return branches.stream()
        .map(b -> b.name() + " <- " + b.parentBranch().orElse("main") + "@" + b.parentVersion()
            + "/" + b.createAtSeconds() + "/" + b.manifestSize())
        .sorted().toList();
  }

  private static String describe(Fragment fragment) {
    StringBuilder line = new StringBuilder().append(fragment.id()).append(" files=");
    line.append(fragment.files().stream()
        .map(file -> file.path() + (file.baseId().isPresent() ? "@" + file.baseId().getAsInt() : "")).toList());
    fragment.deletionFile().ifPresent(deletion -> line.append(" deletion=").append(deletion.fileType())
        .append('/').append(deletion.readVersion()).append('/').append(Long.toUnsignedString(deletion.id()))
        .append(deletion.baseId().isPresent() ? "@" + deletion.baseId().getAsInt() : ""));
    return line.toString();
  }
}
