#!/usr/bin/env ruby
# Print the Rust table of non-ASCII code points that Ruby's String#inspect escapes (Onigmo's
# "print" class for UTF-8: unassigned, controls, surrogates' neighbours, separators like U+2028)
# as inclusive ranges. Output goes to src/merge/ruby/print_table.rs; regenerate it with the Ruby
# that runs the Hiera oracle's puppet (tests/oracle/ruby_text.rs fails when the two differ).
# inspect escapes every non-ASCII character unless the default external encoding is the
# string's (puppet runs with a UTF-8 locale: its recorded answers print "é" as it is).
Encoding.default_external = "UTF-8"
ranges = []
start = nil
(0x80..0x10FFFF).each do |cp|
  next if cp >= 0xD800 && cp <= 0xDFFF
  escaped = [cp].pack("U").encode("UTF-8").inspect.start_with?("\"\\")
  start = cp if escaped && start.nil?
  if !escaped && start
    ranges << [start, cp - 1]
    start = nil
  end
end
ranges << [start, 0x10FFFF] if start
puts "//! `NOT_PRINT`: non-ASCII code points Ruby's `String#inspect` writes as `\\u` escapes (generated"
puts "//! by scripts/gen_ruby_print_table.rb from Ruby #{RUBY_VERSION}; do not edit)."
puts
puts "/// Sorted inclusive ranges of scalar values above U+007F that Ruby does not print as they are"
puts "/// (a range may span the surrogates, which are no `char`)."
puts "pub(super) const NOT_PRINT: &[(u32, u32)] = &["
ranges.each { |a, b| puts format("    (0x%X, 0x%X),", a, b) }
puts "];"
