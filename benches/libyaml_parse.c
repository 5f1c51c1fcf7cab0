/* The reference for benches/ratios.py: libyaml's C parser reads every YAML
 * document named on the command line to its last event (no tree, no values
 * converted), and prints the number of events. Built by the script:
 *   gcc -O2 -o libyaml_parse benches/libyaml_parse.c -lyaml   (Debian: libyaml-dev) */
#include <stdio.h>
#include <yaml.h>

int main(int argc, char **argv) {
    unsigned long events = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        yaml_parser_t parser;
        yaml_event_t event;
        int done = 0;
        if (!f || !yaml_parser_initialize(&parser)) return 2;
        yaml_parser_set_input_file(&parser, f);
        while (!done) {
            if (!yaml_parser_parse(&parser, &event)) {
                fprintf(stderr, "%s: %s\n", argv[i], parser.problem);
                return 1;
            }
            done = event.type == YAML_STREAM_END_EVENT;
            yaml_event_delete(&event);
            events++;
        }
        yaml_parser_delete(&parser);
        fclose(f);
    }
    printf("%lu\n", events);
    return 0;
}
