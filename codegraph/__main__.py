from codegraph.cli.entry import main

main()
