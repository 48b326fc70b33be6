from codegraph.cli.main import main

main()
