package dev.lancemaintenance.tags;

/**
 * The tag names we write: those every Lance line accepts (ASCII letters and digits, {@code .},
 * {@code -}, {@code _}; not starting or ending with a dot, no {@code ..}, not ending in {@code
 * .lock}). Lance accepts more (other letters, and slash-separated names on newer lines) but stores
 * them percent-encoded by its object store's rules; keeping to the common set means a tag we write
 * opens in every reader and its file name is the name as it stands. Tags Lance wrote with other
 * names are read like any other ({@code RefReader} decodes their file names); move or delete them
 * with the SDK.
 */
final class TagName {
  private TagName() {}

  static void check(String table, String name) {
    String problem = problem(name);
    if (problem != null) {
      throw new TagException(table, name, "is not a valid tag name: " + problem);
    }
  }

  private static String problem(String name) {
    if (name == null || name.isEmpty()) {
      return "it is empty";
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c < 128 && Character.isLetterOrDigit(c) || c == '.' || c == '-' || c == '_')) {
        return "use ASCII letters, digits, '.', '-' and '_' only";
      }
    }
    if (name.startsWith(".") || name.endsWith(".")) {
      return "it may not start or end with a dot";
    }
    if (name.contains("..")) {
      return "it may not contain '..'";
    }
    if (name.endsWith(".lock")) {
      return "it may not end with .lock";
    }
    return null;
  }
}
